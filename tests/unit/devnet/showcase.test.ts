import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { BIG_BLOCK, createChain, EPILOGUE_FROM, HUGE_BLOCK, PRUNED_BELOW } from '@/devnet/ledger/chain.mjs';
import { SHOWCASE_SECOND_CHAIN, SHOWCASE_WALLETS, showcaseVersions } from '@/lib/devnet/showcase';
import { SECOND_ACCOUNTS, secondSigners } from '@/devnet/evm/second.mjs';

type Scenario = {
  accounts: Record<string, { checksumAddress: string; txCount: number }>;
  contracts: Record<string, { address: string; txCount: number }>;
  transactions: { kind: string; tokenTransfers: { to: string }[] }[];
};
const scenario = JSON.parse(readFileSync(path.join(__dirname, '../../../devnet/evm/scenario.json'), 'utf8')) as Scenario;

describe('the devnet home showcase', () => {
  it('lists each wallet at the address the scenario gave it, with the scenario’s own counts in its line', () => {
    for (const w of SHOWCASE_WALLETS) {
      const person = scenario.accounts[w.name];
      const contract = scenario.contracts[w.name];
      const account = person ?? contract;
      expect(account, w.name).toBeDefined();
      expect(w.address).toBe(getAddress((person ? person.checksumAddress : contract!.address) as `0x${string}`));
    }
  });

  it('lists the second devnet’s wallets at their addresses, the one active only there absent from the first devnet', () => {
    const signers = secondSigners();
    for (const w of SHOWCASE_SECOND_CHAIN) {
      expect(w.name in SECOND_ACCOUNTS, w.name).toBe(true);
      expect(w.address).toBe(signers[w.name as keyof typeof signers].address);
    }
    // nadia is no account of the first chain's scenario, and no address of it either.
    const nadia = SHOWCASE_SECOND_CHAIN.find((w) => w.name === 'nadia')!.address;
    expect(scenario.accounts.nadia).toBeUndefined();
    expect(Object.values(scenario.accounts).map((a) => a.checksumAddress)).not.toContain(nadia);
    expect(scenario.accounts.alice.checksumAddress).toBe(SHOWCASE_SECOND_CHAIN.find((w) => w.name === 'alice')!.address);
  });

  it('claims transaction counts that are the scenario’s own, on the lines that claim one', () => {
    const claims = SHOWCASE_WALLETS.flatMap((w) => {
      const claimed = w.shows.match(/(\d+) transactions/);
      return claimed ? [[w.name, Number(claimed[1])] as const] : [];
    });
    const txCount = (name: string) => (scenario.accounts[name] ?? scenario.contracts[name])!.txCount;
    // A line reworded without its count drops out of this list, and the list is pinned: the check cannot go quiet.
    expect(claims.map(([name]) => name)).toEqual(['alice', 'dave', 'peggy']);
    expect(claims).toEqual(claims.map(([name]) => [name, txCount(name)]));
  });

  it('calls carol a spam-airdrop victim only because the scenario airdrops to her', () => {
    const carol = scenario.accounts.carol.checksumAddress.toLowerCase();
    const airdrops = scenario.transactions.filter((t) => t.kind === 'airdrop');
    expect(airdrops.some((t) => t.tokenTransfers.some((x) => x.to.toLowerCase() === carol))).toBe(true);
  });

  it('links ledger versions that are what their labels say', () => {
    const chain = createChain();
    const byLabel = Object.fromEntries(showcaseVersions().map((v) => [v.label, v.version]));
    expect(chain.lastVersionOf(4200) - chain.firstVersionOf(4200) + 1).toBe(2002);
    expect(byLabel['Block 4200']).toBe(31813);
    expect(chain.heightOf(byLabel['Block 5500']!)).toBe(5500);
    expect(chain.lastVersionOf(5500) - byLabel['Block 5500']! + 1).toBe(10000);
    expect(byLabel.Pruned).toBeLessThan(chain.firstVersionOf(PRUNED_BELOW));
    expect(byLabel.Head).toBe(chain.headVersion);
    expect(chain.heightOf(byLabel['Block 3000']!)).toBe(EPILOGUE_FROM);
    expect(byLabel['Block 3000']).toBe(chain.firstVersionOf(EPILOGUE_FROM));
    expect(byLabel['Block 5500']).toBe(chain.firstVersionOf(HUGE_BLOCK));
    expect(byLabel['Block 4200']).toBe(chain.firstVersionOf(BIG_BLOCK));
    expect(byLabel.Pruned).toBe(chain.firstVersionOf(PRUNED_BELOW) - 1);
  });
});
