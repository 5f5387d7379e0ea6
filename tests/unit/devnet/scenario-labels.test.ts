import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getAddress, getContractAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { SECOND_ACCOUNTS, secondSigners } from '@/devnet/evm/second.mjs';
import { DEVNET_PEOPLE, devnetLabel, devnetLabels } from '@/lib/devnet/scenario-labels';
import { devnetAccountChoices } from '@/components/auth/devnet-connector';

type Scenario = {
  accounts: Record<string, { checksumAddress: string; index: number }>;
  contracts: Record<string, { address: string }>;
};
const scenario = JSON.parse(readFileSync(path.join(__dirname, '../../../devnet/evm/scenario.json'), 'utf8')) as Scenario;

describe('the devnets’ public labels', () => {
  it('name every person of the first devnet’s scenario at their address and index', () => {
    expect(DEVNET_PEOPLE.map((p) => p.name)).toEqual(Object.keys(scenario.accounts));
    for (const p of DEVNET_PEOPLE) {
      expect(p.address).toBe(scenario.accounts[p.name].checksumAddress);
      expect(p.index).toBe(scenario.accounts[p.name].index);
      expect(devnetLabel(31337, p.address.toLowerCase())).toBe(p.name);
    }
  });

  it('name every contract of the first devnet, the pool as “the pool”', () => {
    const labels = devnetLabels(31337);
    for (const c of Object.values(scenario.contracts)) expect(labels[c.address.toLowerCase()], c.address).toBeTruthy();
    expect(devnetLabel(31337, scenario.contracts.pool.address)).toBe('the pool');
    expect(devnetLabel(31337, scenario.contracts.usdc.address)).toBe('USDC token');
  });

  it('name the second devnet’s people and contracts there, and nothing on other chains', () => {
    const signers = secondSigners();
    for (const name of Object.keys(SECOND_ACCOUNTS) as (keyof typeof signers)[]) expect(devnetLabel(31338, signers[name].address)).toBe(name);
    // devnet/evm/second.mjs: the deployer's first two transactions there create D2D and Second Lights.
    const created = (nonce: bigint) => getContractAddress({ from: signers.deployer.address, nonce });
    expect(devnetLabel(31338, created(0n))).toBe('D2D token');
    expect(devnetLabel(31338, created(1n))).toBe('Second Lights');
    expect(devnetLabel(1, scenario.accounts.alice.checksumAddress)).toBeNull();
    expect(devnetLabel(31337, getAddress('0x000000000000000000000000000000000000dead'))).toBeNull();
  });

  it('list the sign-in’s devnet accounts by name, alice first and the deployer last', () => {
    expect(devnetAccountChoices.map((a) => a.name)).toEqual(['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'spammer', 'grace', 'heidi', 'deployer']);
  });
});
