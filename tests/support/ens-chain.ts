import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, createWalletClient, encodeFunctionData, http, labelhash, namehash, type Abi, type Address, type Hex } from 'viem';
import { mainnet } from 'viem/chains';
import { spawnAnvil } from '../../devnet/evm/anvil.mjs';
import { freePort } from './ports';

/**
 * A local ENS on anvil, for ENS_RPC_URL: ENS's own published registry, public resolver and reverse
 * registrar (@ensdomains/ens, @ensdomains/resolver: the contracts mainnet ran), set up the way ENS is
 * (`eth` and `addr.reverse` under the root), names registered and primary names claimed by transactions
 * from the accounts themselves. viem finds ENS through the Universal Resolver and Multicall3 at mainnet's
 * addresses; the Universal Resolver is not in those packages, so tests/support/ens/ has one that looks
 * names up in the registry above, and its code is placed at those addresses (anvil_setCode).
 */
export interface EnsChain {
  url: string;
  accounts: Address[];
  registry: Address;
  /** Registers `label.eth` for `owner`, pointing at `owner`. */
  register: (label: string, owner: Address) => Promise<void>;
  /** `account` claims `name` as its primary name through the reverse registrar (any name, true or not). */
  setPrimaryName: (account: Address, name: string) => Promise<void>;
  send: (from: Address, to: Address, value: bigint) => Promise<Hex>;
  stop: () => Promise<void>;
}

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const truffle = (pkg: string, name: string) => {
  const a = require(`${pkg}/build/contracts/${name}.json`) as { abi: Abi; bytecode: Hex };
  return { abi: a.abi, bytecode: a.bytecode };
};

function compileLocal(): Record<string, { abi: Abi; bytecode: Hex }> {
  const solc = require('solc');
  const sources = Object.fromEntries(['LocalUniversalResolver.sol', 'LocalMulticall3.sol'].map((f) => [f, { content: readFileSync(path.join(here, 'ens', f), 'utf8') }]));
  const out = JSON.parse(
    solc.compile(JSON.stringify({ language: 'Solidity', sources, settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } } })),
  );
  const errors = (out.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
  const c = (file: string, name: string) => ({ abi: out.contracts[file][name].abi as Abi, bytecode: `0x${out.contracts[file][name].evm.bytecode.object}` as Hex });
  return { LocalUniversalResolver: c('LocalUniversalResolver.sol', 'LocalUniversalResolver'), LocalMulticall3: c('LocalMulticall3.sol', 'LocalMulticall3') };
}

/**
 * Chain 1 at 127.0.0.2 by default: a mainnet node as an operator would name it in EVM_RPC_URL and
 * ENS_RPC_URL (Lantern takes 127.0.0.1 for its own devnet, whose accounts have no ENS names).
 */
export async function startEnsChain(opts: { chainId?: number; host?: string } = {}): Promise<EnsChain> {
  const anvil = await spawnAnvil({ port: await freePort(), host: opts.host ?? '127.0.0.2', args: ['--accounts', '12', '--chain-id', String(opts.chainId ?? 1)] });
  try {
    const transport = http(anvil.url);
    const pub = createPublicClient({ transport });
    const wallet = createWalletClient({ transport });
    const accounts = await wallet.getAddresses();
    const deployer = accounts[0]!;
    const mined = async (hash: Hex) => {
      const r = await pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      if (r.status !== 'success') throw new Error(`transaction ${hash} reverted`);
      return r;
    };
    const deploy = async (c: { abi: Abi; bytecode: Hex }, args: unknown[] = []) =>
      (await mined(await wallet.deployContract({ abi: c.abi, bytecode: c.bytecode, args, account: deployer, chain: null } as never))).contractAddress!;
    const call = async (from: Address, to: Address, abi: Abi, functionName: string, args: unknown[]) =>
      mined(await wallet.sendTransaction({ account: from, chain: null, to, data: encodeFunctionData({ abi, functionName, args } as never) }));

    const Registry = truffle('@ensdomains/ens', 'ENSRegistry');
    const Reverse = truffle('@ensdomains/ens', 'ReverseRegistrar');
    const Resolver = truffle('@ensdomains/resolver', 'PublicResolver');
    const registry = await deploy(Registry);
    const resolver = await deploy(Resolver, [registry]);
    const reverse = await deploy(Reverse, [registry, resolver]);
    const root = `0x${'00'.repeat(32)}` as Hex;
    await call(deployer, registry, Registry.abi, 'setSubnodeOwner', [root, labelhash('eth'), deployer]);
    await call(deployer, registry, Registry.abi, 'setSubnodeOwner', [root, labelhash('reverse'), deployer]);
    await call(deployer, registry, Registry.abi, 'setSubnodeOwner', [namehash('reverse'), labelhash('addr'), reverse]);

    const local = compileLocal();
    const ur = await deploy(local.LocalUniversalResolver!, [registry]);
    const mc = await deploy(local.LocalMulticall3!, []);
    const rpc = (method: string, params: unknown[]) => pub.request({ method, params } as never);
    await rpc('anvil_setCode', [mainnet.contracts.ensUniversalResolver.address, await pub.getCode({ address: ur })]);
    await rpc('anvil_setCode', [mainnet.contracts.multicall3.address, await pub.getCode({ address: mc })]);

    return {
      url: anvil.url,
      accounts,
      registry,
      register: async (label, owner) => {
        const node = namehash(`${label}.eth`);
        await call(deployer, registry, Registry.abi, 'setSubnodeOwner', [namehash('eth'), labelhash(label), deployer]);
        await call(deployer, registry, Registry.abi, 'setResolver', [node, resolver]);
        await call(deployer, resolver, Resolver.abi, 'setAddr', [node, owner]);
        await call(deployer, registry, Registry.abi, 'setOwner', [node, owner]);
      },
      setPrimaryName: async (account, name) => {
        await call(account, reverse, Reverse.abi, 'setName', [name]);
      },
      send: async (from, to, value) => (await mined(await wallet.sendTransaction({ account: from, chain: null, to, value }))).transactionHash,
      stop: () => anvil.stop(),
    };
  } catch (e) {
    await anvil.stop();
    throw e;
  }
}

/** The ENS story the integration and browser tests tell, set on a fresh ENS chain. */
export interface EnsStory {
  alice: Address;
  bob: Address;
  mallory: Address;
  carol: Address;
  /** alice's payments to bob, mallory and carol. */
  hashes: { bob: Hex; mallory: Hex; carol: Hex };
}

export async function tellEnsStory(ens: EnsChain): Promise<EnsStory> {
  const [, alice, bob, mallory, carol] = ens.accounts as [Address, Address, Address, Address, Address];
  await ens.register('bob', bob);
  await ens.setPrimaryName(bob, 'bob.eth');
  // Mallory claims bob.eth as her primary name: the name does not resolve to her, so it is not hers.
  await ens.setPrimaryName(mallory, 'bob.eth');
  // Carol owns carol.eth (it resolves to her) but never claimed a primary name.
  await ens.register('carol', carol);
  const hashes = {
    bob: await ens.send(alice, bob, 10n ** 15n),
    mallory: await ens.send(alice, mallory, 2n * 10n ** 15n),
    carol: await ens.send(alice, carol, 3n * 10n ** 15n),
  };
  return { alice, bob, mallory, carol, hashes };
}
