import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import {
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  http,
  keccak256,
  serializeErc6492Signature,
  toHex,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { stopChild } from './lantern';
import { freePort } from './ports';

/**
 * The chain the sign-in tests verify contract wallets on: everything they need from it comes from
 * here (RPC URL, accounts, the EIP-1271 wallet, the EIP-6492 counterfactual wallet). Today it starts
 * its own anvil and deploys tests/fixtures/SignInWallet.sol; it can be pointed at the shared devnet
 * (graceWallet, the factory's undeployed wallet) without touching the tests.
 */
export interface SignInChain {
  rpcUrl: string;
  chainId: number;
  /** anvil's default accounts 0..9. */
  accounts: PrivateKeyAccount[];
  /** Deployed EIP-1271 wallet and the key it accepts. */
  wallet1271: { address: Address; owner: PrivateKeyAccount };
  /** Not yet deployed wallet: sign with the owner, then wrap with `wrap6492`. */
  counterfactual: { address: Address; owner: PrivateKeyAccount; wrap6492: (signature: Hex) => Hex };
  stop: () => Promise<void>;
}

export const ANVIL_KEYS: Hex[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
];

function compile(): Record<string, { abi: Abi; bytecode: Hex }> {
  const require = createRequire(import.meta.url);
  const solc = require('solc');
  const source = readFileSync(path.resolve('tests/fixtures/SignInWallet.sol'), 'utf8');
  const out = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'SignInWallet.sol': { content: source } },
        settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
      }),
    ),
  );
  const errors = (out.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
  const c = out.contracts['SignInWallet.sol'];
  return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, { abi: (v as { abi: Abi }).abi, bytecode: `0x${(v as { evm: { bytecode: { object: string } } }).evm.bytecode.object}` as Hex }]));
}

async function startAnvil(port: number): Promise<ChildProcess> {
  const child = spawn(path.resolve('node_modules/.bin/anvil'), ['--silent', '--host', '127.0.0.1', '--port', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`anvil exited (${child.exitCode})`);
    try {
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' });
      if (r.ok) return child;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('anvil did not start');
}

export async function startSignInChain(port?: number): Promise<SignInChain> {
  const p = port ?? (await freePort());
  const anvil = await startAnvil(p);
  const rpcUrl = `http://127.0.0.1:${p}`;
  const accounts = ANVIL_KEYS.map((k) => privateKeyToAccount(k));
  const deployer = accounts[0];
  const pub = createPublicClient({ chain: foundry, transport: http(rpcUrl) });
  const wallet = createWalletClient({ chain: foundry, transport: http(rpcUrl), account: deployer });
  const { SignInWallet, SignInWalletFactory } = compile();

  const owner = accounts[8];
  const deploy = async (abi: Abi, bytecode: Hex, args: unknown[]) => {
    const hash = await wallet.deployContract({ abi, bytecode, args });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    return getAddress(receipt.contractAddress!);
  };
  const wallet1271 = await deploy(SignInWallet.abi, SignInWallet.bytecode, [owner.address]);
  const factory = await deploy(SignInWalletFactory.abi, SignInWalletFactory.bytecode, []);

  const salt = keccak256(toHex('lantern-sign-in-counterfactual'));
  const initCode = encodeDeployData({ abi: SignInWallet.abi, bytecode: SignInWallet.bytecode, args: [owner.address] });
  const counterfactual = getContractAddress({ opcode: 'CREATE2', from: factory, salt, bytecode: initCode });
  const factoryData = encodeFunctionData({ abi: SignInWalletFactory.abi, functionName: 'create', args: [owner.address, salt] });

  return {
    rpcUrl,
    chainId: foundry.id,
    accounts,
    wallet1271: { address: wallet1271, owner },
    counterfactual: {
      address: counterfactual,
      owner,
      wrap6492: (signature) => serializeErc6492Signature({ address: factory, data: factoryData, signature }),
    },
    stop: () => stopChild(anvil),
  };
}
