import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem';
import { spawnAnvil } from '../../devnet/evm/anvil.mjs';
import { prng } from '../../devnet/evm/index.mjs';
import { loadArtifacts } from '../fixtures/foreign-chain/compile.mjs';
import { freePort } from './ports';
import { receiptOf, rpcClient, type Rpc } from './rpc';

/**
 * A chain Lantern did not write: its own anvil (chain id 31337 unless told, unlocked accounts), OpenZeppelin tokens,
 * a WETH-like wrapper, an ERC1967 proxy, a CREATE2 factory whose children pay in their constructor,
 * SELFDESTRUCT (in the creating transaction and later), CALLCODE, STATICCALL, reverted frames, reverted
 * and out-of-gas transactions, many transactions per block. The scenario is random (seeded) and keeps no
 * books: what each wallet's history must hold is computed from the node afterwards (`oracle`).
 */

export { receiptOf, rpcClient, type Rpc } from './rpc';
type Address = `0x${string}`;

export interface ForeignChain {
  url: string;
  rpc: Rpc;
  wallets: Address[];
  heirs: Address[];
  contracts: Record<string, Address>;
  /** Sends one round of random transactions (packed into blocks) and mines them. */
  round: (txs: number, opts?: { only?: Address }) => Promise<void>;
  stop: () => Promise<void>;
}

const artifacts = loadArtifacts();
const abi = (name: string) => artifacts[name]!.abi as Abi;
const GAS = '0x61a80'; // 400,000: every transaction names its gas, so nothing is estimated against pending state

/**
 * `chainId` and `host` make it another network's node: chain 137 on 127.0.0.2 is a Polygon node as an
 * operator would run it (Lantern takes only 127.0.0.1/localhost for its own devnet). `extraArgs` go to
 * anvil (a long chain needs `--max-persisted-states` for its old blocks to stay traceable).
 */
export async function startForeignChain(seed = 11, opts: { chainId?: number; host?: string; extraArgs?: string[] } = {}): Promise<ForeignChain> {
  const port = await freePort();
  const anvil = await spawnAnvil({
    port,
    host: opts.host,
    args: ['--hardfork', 'prague', '--accounts', '12', '--chain-id', String(opts.chainId ?? 31337), ...(opts.extraArgs ?? [])],
  });
  const rpc = rpcClient(anvil.url);
  try {
    const accounts = (await rpc.call('eth_accounts')) as Address[];
    const deployer = accounts[0]!;
    const wallets = accounts.slice(1, 9);
    // Addresses that only ever receive ETH from a SELFDESTRUCT or a CREATE2 child's constructor.
    const heirs = [1, 2, 3, 4].map((i) => `0x${'be'.repeat(19)}0${i}` as Address);

    const send = (from: Address, to: Address | null, data: Hex = '0x', value = 0n, gas = GAS) =>
      rpc.call('eth_sendTransaction', [{ from, ...(to ? { to } : {}), data, value: `0x${value.toString(16)}`, gas }]) as Promise<Hex>;
    const mine = () => rpc.call('evm_mine', []);
    const call = (name: string, fn: string, args: unknown[] = []) => encodeFunctionData({ abi: abi(name), functionName: fn, args } as never);
    const deployData = (name: string, args: unknown[] = []) => encodeDeployData({ abi: abi(name), bytecode: artifacts[name]!.bytecode, args } as never);

    const receipt = (hash: Hex) => receiptOf<{ contractAddress: Address; status: Hex }>(rpc, hash);
    // Deployment, automined: one contract per block.
    const contracts: Record<string, Address> = {};
    const deploy = async (key: string, name: string, args: unknown[] = []) => {
      const hash = await send(deployer, null, deployData(name, args), 0n, '0x4c4b40');
      const r = await receipt(hash);
      if (r.status !== '0x1') throw new Error(`deploying ${name} failed`);
      contracts[key] = r.contractAddress;
    };
    await deploy('usd6', 'Coin', ['Foreign Dollar', 'FUSD', 6]);
    await deploy('gold18', 'Coin', ['Foreign Gold', 'FGLD', 18]);
    await deploy('art', 'Art');
    await deploy('kit', 'Kit');
    await deploy('weth', 'Wrapped');
    await deploy('vault', 'Vault');
    await deploy('proxy', 'VaultProxy', [contracts.vault]);
    await deploy('factory', 'Factory');
    await deploy('piggy', 'Piggy');
    await deploy('chaos', 'Chaos');

    const rand = prng(seed);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const eth = (max: number) => BigInt(Math.floor(rand() * max * 1e6) + 1) * 10n ** 12n; // up to `max` ETH
    let nextArt = 1;
    let salt = 0;
    const artOwner = new Map<number, Address>(); // a guess: a wrong guess only makes a reverted transaction

    const action = async (only?: Address) => {
      const a = only ?? pick(wallets);
      const b = pick(wallets.filter((w) => w !== a));
      const c = pick(wallets);
      const k = Math.floor(rand() * 24);
      const C = contracts;
      switch (k) {
        case 0: return send(a, b, '0x', eth(2), '0x186a0');
        case 1: return send(deployer, C.usd6!, call('Coin', 'mint', [a, BigInt(Math.floor(rand() * 1e9))]));
        case 2: return send(a, C.usd6!, call('Coin', 'transfer', [b, BigInt(Math.floor(rand() * 3e8))])); // may exceed: reverts
        case 3: return send(deployer, C.gold18!, call('Coin', 'mint', [a, eth(50)]));
        case 4: return send(a, C.gold18!, call('Coin', 'approve', [b, eth(20)]));
        case 5: return send(b, C.gold18!, call('Coin', 'transferFrom', [a, c, eth(5)])); // spender moves a's tokens
        case 6: return send(a, C.weth!, call('Wrapped', 'deposit'), eth(3));
        case 7: return send(a, C.weth!, '0x', eth(1)); // receive(): plain ETH in, tokens out
        case 8: return send(a, C.weth!, call('Wrapped', 'withdraw', [eth(2)])); // ETH back by an internal CALL, or a revert
        case 9: return send(a, C.proxy!, call('Vault', 'deposit'), eth(2)); // through the proxy: DELEGATECALL carrying value
        case 10: return send(a, C.proxy!, call('Vault', 'pay', [pick([...wallets, ...heirs]), eth(0.5)])); // the proxy pays out
        case 11: return send(a, C.factory!, call('Factory', 'make', [`0x${(salt++ % 40).toString(16).padStart(64, '0')}`, pick([b, ...heirs])]), eth(1)); // repeated salts revert
        case 12: return send(a, null, deployData('Doomed', [pick(heirs)]), eth(1));
        case 13: return send(a, C.piggy!, '0x', eth(1));
        case 14: return send(a, C.piggy!, call('Piggy', 'smash', [pick([...heirs, b])]));
        case 15: return send(a, C.chaos!, call('Chaos', 'tryPay', [b, pick([c, C.piggy!])]), eth(1));
        case 16: return send(a, C.chaos!, call('Chaos', 'tryPay', [b, C.art!]), eth(1)); // Art takes no ETH: the transaction reverts
        case 17: return send(a, C.chaos!, call('Chaos', 'burnGas'), 0n, '0x13880'); // out of gas
        case 18: return send(a, C.chaos!, call('Chaos', 'codeCall', [C.piggy!]), eth(1)); // CALLCODE: value stays in Chaos
        case 19: return send(a, C.chaos!, call('Chaos', 'peek', [C.usd6!, b])); // STATICCALL
        case 20: {
          const id = nextArt++;
          artOwner.set(id, a);
          return send(deployer, C.art!, call('Art', 'mint', [a, BigInt(id)]));
        }
        case 21: {
          const mine721 = [...artOwner].filter(([, o]) => o === a).map(([id]) => id);
          if (mine721.length === 0) return send(a, C.art!, call('Art', 'setApprovalForAll', [b, true]));
          const id = pick(mine721);
          if (rand() < 0.2) {
            artOwner.delete(id);
            return send(a, C.art!, call('Art', 'burn', [BigInt(id)]));
          }
          if (rand() < 0.5) {
            // approve b, then b moves it (same block: the order decides whether it succeeds)
            await send(a, C.art!, call('Art', 'approve', [b, BigInt(id)]));
            artOwner.set(id, c);
            return send(b, C.art!, call('Art', 'transferFrom', [a, c, BigInt(id)]));
          }
          artOwner.set(id, b);
          return send(a, C.art!, call('Art', 'safeTransferFrom', [a, b, BigInt(id)]));
        }
        case 22: {
          const id = BigInt(1 + Math.floor(rand() * 4));
          if (rand() < 0.5) return send(deployer, C.kit!, call('Kit', 'mint', [a, id, BigInt(1 + Math.floor(rand() * 10))]));
          return send(deployer, C.kit!, call('Kit', 'mintBatch', [a, [1n, 2n, 3n], [2n, 3n, 4n]]));
        }
        default: {
          // ERC-1155 by an operator: a approves b for everything, b moves a's items to c
          await send(a, C.kit!, call('Kit', 'setApprovalForAll', [b, true]));
          if (rand() < 0.5) return send(b, C.kit!, call('Kit', 'safeTransferFrom', [a, c, BigInt(1 + Math.floor(rand() * 4)), 1n, '0x']));
          return send(b, C.kit!, call('Kit', 'safeBatchTransferFrom', [a, c, [1n, 2n], [1n, 1n], '0x']));
        }
      }
    };

    const round = async (txs: number, opts: { only?: Address } = {}) => {
      await rpc.call('evm_setAutomine', [false]);
      try {
        for (let sent = 0; sent < txs; sent++) {
          await action(opts.only);
          if (sent % 40 === 39) await mine();
        }
        await mine();
      } finally {
        await rpc.call('evm_setAutomine', [true]);
      }
    };

    return { url: anvil.url, rpc, wallets, heirs, contracts, round, stop: () => anvil.stop() };
  } catch (e) {
    await anvil.stop();
    throw e;
  }
}

// ------------------------------------------------------------------------------------------------
// The oracle: from the node alone (blocks, receipts, logs, callTracer traces).

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const SINGLE = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62';
const BATCH = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb';
export const ZERO = '0x0000000000000000000000000000000000000000';

interface Frame {
  type: string;
  from: string;
  to?: string;
  value?: Hex;
  error?: string;
  calls?: Frame[];
}

export interface OracleTx {
  hash: string;
  block: number;
  index: number;
  from: string;
  fee: bigint;
  /** receipt status 1 */
  ok: boolean;
  parties: Set<string>;
  /**
   * The parties a node without ots_ and trace_filter (Geth) lets one find without tracing: the transaction's
   * sender, recipient or created contract (the call tree's root) and the token-transfer parties of its logs.
   */
  shallow: Set<string>;
  /** ETH that moved: `from>to:wei`, one entry per movement. */
  transfers: string[];
  /** Frames whose reported value did not move (`DELEGATECALL`, `CALLCODE`, `reverted`) and SELFDESTRUCTs seen. */
  kinds: Set<string>;
  /** Token movements of the receipt's logs: `erc20:token:from>to:value`, `nft:token:id:from>to:amount`. */
  tokens: string[];
  /** Each account's balance change in this transaction (prestateTracer diffMode), fee included; only changed ones. */
  balanceDiff: Map<string, bigint>;
}

/**
 * Every transaction of blocks [1, head] with its parties and its ETH movements, by the rule.
 * `balances: false` skips the prestate traces (balanceDiff stays empty) for tests that do not use them.
 */
export async function oracle(rpc: Rpc, opts: { balances?: boolean } = {}): Promise<OracleTx[]> {
  const head = Number(await rpc.call('eth_blockNumber'));
  const blocks = (await rpc.batch(Array.from({ length: head }, (_, i) => ['eth_getBlockByNumber', [`0x${(i + 1).toString(16)}`, false]]))) as { number: Hex; transactions: Hex[] }[];
  const hashes = blocks.flatMap((b) => b.transactions);
  const receipts = (await rpc.batch(hashes.map((h) => ['eth_getTransactionReceipt', [h]]), 50)) as {
    transactionHash: string; blockNumber: Hex; transactionIndex: Hex; from: string; to: string | null; contractAddress: string | null;
    status: Hex; gasUsed: Hex; effectiveGasPrice: Hex; logs: { address: string; topics: string[]; data: Hex }[];
  }[];
  const traces = (await rpc.batch(hashes.map((h) => ['debug_traceTransaction', [h, { tracer: 'callTracer' }]]), 50)) as Frame[];
  type Prestate = Record<string, { balance?: Hex }>;
  const diffs = (
    opts.balances === false
      ? hashes.map(() => ({ pre: {}, post: {} }))
      : await rpc.batch(hashes.map((h) => ['debug_traceTransaction', [h, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]]), 50)
  ) as {
    pre: Prestate;
    post: Prestate;
  }[];
  return receipts.map((r, i) => {
    const root = traces[i]!;
    const parties = new Set<string>([r.from.toLowerCase()]);
    if (r.to) parties.add(r.to.toLowerCase());
    if (r.contractAddress) parties.add(r.contractAddress.toLowerCase());
    const transfers: string[] = [];
    const kinds = new Set<string>();
    const ok = r.status === '0x1';
    const walk = (f: Frame, depth: number, reverted: boolean) => {
      const rev = reverted || !!f.error;
      parties.add(f.from.toLowerCase());
      if (f.to) parties.add(f.to.toLowerCase());
      const value = BigInt(f.value ?? '0x0');
      const moves = depth === 0 ? true : ['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT'].includes(f.type.toUpperCase());
      if (ok && !rev && moves && value > 0n && f.to) transfers.push(`${f.from.toLowerCase()}>${f.to.toLowerCase()}:${value}`);
      if (f.type.toUpperCase() === 'SELFDESTRUCT' && !rev) kinds.add('SELFDESTRUCT');
      if (value > 0n && depth > 0 && (rev || !moves)) kinds.add(rev ? 'reverted' : f.type.toUpperCase());
      for (const c of f.calls ?? []) walk(c, depth + 1, rev);
    };
    const shallow = new Set<string>([r.from.toLowerCase(), root.from.toLowerCase()]);
    for (const a of [r.to, r.contractAddress, root.to]) if (a) shallow.add(a.toLowerCase());
    walk(root, 0, false);
    const tokens: string[] = [];
    for (const l of r.logs) {
      const t = l.topics;
      const addr = (x: string | undefined) => (x ? `0x${x.slice(26)}`.toLowerCase() : null);
      const add = (...xs: (string | null)[]) => xs.forEach((x) => x && (parties.add(x), shallow.add(x)));
      const token = l.address.toLowerCase();
      if (t[0] === TRANSFER && (t.length === 3 || t.length === 4)) add(addr(t[1]), addr(t[2]));
      if ((t[0] === SINGLE || t[0] === BATCH) && t.length === 4) add(addr(t[2]), addr(t[3]));
      if (t[0] === TRANSFER && t.length === 3) tokens.push(`erc20:${token}:${addr(t[1])}>${addr(t[2])}:${BigInt(l.data)}`);
      if (t[0] === TRANSFER && t.length === 4) tokens.push(`nft:${token}:${BigInt(t[3]!)}:${addr(t[1])}>${addr(t[2])}:1`);
      if ((t[0] === SINGLE || t[0] === BATCH) && t.length === 4) {
        // ABI words of the data: (id, value) for a single; (offset, offset, n, ids..., n, values...) for a batch.
        const words = (l.data.slice(2).match(/.{64}/g) ?? []).map((w) => BigInt(`0x${w}`));
        const pairs: [bigint, bigint][] =
          t[0] === SINGLE ? [[words[0]!, words[1]!]] : words.slice(3, 3 + Number(words[2])).map((id, k) => [id, words[4 + Number(words[2]) + k]!]);
        for (const [id, value] of pairs) tokens.push(`nft:${token}:${id}:${addr(t[2])}>${addr(t[3])}:${value}`);
      }
    }
    const balanceDiff = new Map<string, bigint>();
    const { pre, post } = diffs[i]!;
    // diffMode: `pre` holds the accounts the transaction changed, `post` what changed in them; an account
    // only in `pre` was deleted, one only in `post` is new, a field left out of `post` did not change.
    for (const a of new Set([...Object.keys(pre), ...Object.keys(post)])) {
      const before = pre[a] ? BigInt(pre[a]!.balance ?? '0x0') : 0n;
      const after = post[a] ? (post[a]!.balance !== undefined ? BigInt(post[a]!.balance!) : before) : 0n;
      if (after !== before) balanceDiff.set(a.toLowerCase(), after - before);
    }
    return {
      hash: r.transactionHash.toLowerCase(),
      block: Number(r.blockNumber),
      index: Number(r.transactionIndex),
      from: r.from.toLowerCase(),
      fee: BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice),
      ok,
      parties,
      shallow,
      transfers: transfers.sort(),
      kinds,
      tokens: tokens.sort(),
      balanceDiff,
    };
  });
}
