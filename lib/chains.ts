import { defineChain, type Chain as ViemChain } from 'viem';
import {
  arbitrum,
  avalanche,
  base,
  baseSepolia,
  bsc,
  bscTestnet,
  chiliz,
  cronos,
  fantom,
  foundry,
  gnosis,
  gnosisChiado,
  holesky,
  linea,
  lineaSepolia,
  mainnet,
  moonbaseAlpha,
  moonbeam,
  moonriver,
  optimism,
  optimismSepolia,
  palm,
  polygon,
  polygonAmoy,
  sepolia,
  spicy,
} from 'viem/chains';
import { LanternError, badParameter } from '@/lib/errors';

/**
 * Every chain of the interface's two chain tables (wallet history, wallet NFTs) plus the two local devnets.
 * Ids, native currency and explorer come from viem; the names are the interface's.
 *
 * Decision (issue 2): the interface's history table says `linea 0xe705`, but 0xe705 is Linea Sepolia
 * (59141) and Linea mainnet is 0xe708 (59144). `linea` means 0xe708 everywhere, `0xe705` and
 * `linea sepolia` mean Linea Sepolia, and both operations accept both.
 */

export type ChainOperation = 'history' | 'nfts';

export interface Chain {
  /** Canonical name as the interface spells it (`eth`, `polygon amoy`); what Lantern sends upstream. */
  name: string;
  /** Human-readable name for pages. */
  label: string;
  id: number;
  hex: `0x${string}`;
  nativeCurrency: { symbol: string; decimals: number };
  explorerUrl: string | null;
  operations: readonly ChainOperation[];
  testnet: boolean;
  /** A local devnet (devnet, devnet2): served only by a node, or by a hosted API that is another Lantern reading it. */
  devnet: boolean;
  viem: ViemChain;
}

const BOTH: readonly ChainOperation[] = ['history', 'nfts'];
const NFTS: readonly ChainOperation[] = ['nfts'];

function define(name: string, label: string, chain: ViemChain, operations: readonly ChainOperation[], devnet = false): Chain {
  return {
    name,
    label,
    id: chain.id,
    hex: `0x${chain.id.toString(16)}`,
    nativeCurrency: { symbol: chain.nativeCurrency.symbol, decimals: chain.nativeCurrency.decimals },
    explorerUrl: chain.blockExplorers?.default.url ?? null,
    operations,
    testnet: devnet || chain.testnet === true,
    devnet,
    viem: chain,
  };
}

/** The local devnet (`npm run dev`'s first anvil): accepted only where a node or the hosted API serves it. */
export const DEVNET_CHAIN: Chain = define('devnet', 'Local devnet', foundry, BOTH, true);
/** The second local devnet (`npm run dev`'s second anvil, chain 31338): the multi-chain story. */
export const DEVNET2_CHAIN: Chain = define('devnet2', 'Local devnet 2', { ...foundry, id: 31338, name: 'Local devnet 2' }, BOTH, true);
export const LOCAL_DEVNETS: readonly Chain[] = [DEVNET_CHAIN, DEVNET2_CHAIN];

/** Interface order (NFT table, which contains the history table), then the devnets. */
export const allChains: readonly Chain[] = [
  define('eth', 'Ethereum', mainnet, BOTH),
  define('sepolia', 'Sepolia', sepolia, NFTS),
  define('holesky', 'Holesky', holesky, NFTS),
  define('polygon', 'Polygon', polygon, BOTH),
  define('polygon amoy', 'Polygon Amoy', polygonAmoy, NFTS),
  define('bsc', 'BNB Smart Chain', bsc, BOTH),
  define('bsc testnet', 'BNB Smart Chain Testnet', bscTestnet, NFTS),
  define('avalanche', 'Avalanche', avalanche, BOTH),
  define('fantom', 'Fantom', fantom, BOTH),
  define('palm', 'Palm', palm, BOTH),
  define('cronos', 'Cronos', cronos, BOTH),
  define('arbitrum', 'Arbitrum One', arbitrum, BOTH),
  define('gnosis', 'Gnosis', gnosis, BOTH),
  define('gnosis testnet', 'Gnosis Chiado', gnosisChiado, NFTS),
  define('chiliz', 'Chiliz', chiliz, BOTH),
  define('chiliz testnet', 'Chiliz Spicy', spicy, NFTS),
  define('base', 'Base', base, BOTH),
  define('base sepolia', 'Base Sepolia', baseSepolia, NFTS),
  define('optimism', 'OP Mainnet', optimism, BOTH),
  define('optimism sepolia', 'OP Sepolia', optimismSepolia, NFTS),
  define('linea', 'Linea', linea, BOTH),
  define('linea sepolia', 'Linea Sepolia', lineaSepolia, BOTH),
  define('moonbeam', 'Moonbeam', moonbeam, NFTS),
  define('moonriver', 'Moonriver', moonriver, NFTS),
  define('moonbase', 'Moonbase Alpha', moonbaseAlpha, NFTS),
  ...LOCAL_DEVNETS,
];

const byId = new Map(allChains.map((c) => [c.id, c]));

/** `Polygon-Amoy`, `polygon_amoy` and ` polygon  amoy ` all mean `polygon amoy`. */
function normaliseName(value: string): string {
  return value.trim().toLowerCase().replace(/[\s_-]+/g, ' ');
}

const HEX_ID = /^0x[0-9a-f]{1,16}$/i;

/**
 * Looks a chain of the registry up by name or hex id, whatever the operation; undefined when unknown.
 * Only the chain rule (lib/operations/chains.ts) and the configuration use it (lint holds this).
 */
export function findChain(value: string): Chain | undefined {
  const v = value.trim();
  if (HEX_ID.test(v)) return byId.get(Number.parseInt(v.slice(2), 16));
  const name = normaliseName(v);
  return allChains.find((c) => c.name === name);
}

/** A hex chain id (`0x2105`) as a number; undefined for anything else. */
export function hexChainId(value: string): number | undefined {
  const v = value.trim();
  if (!HEX_ID.test(v)) return undefined;
  const id = Number.parseInt(v.slice(2), 16);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

export function chainById(id: number): Chain | undefined {
  return byId.get(id);
}

/**
 * The chain with this id: the registry's, else one Lantern knows only by its id (a node of a chain the
 * interface does not list, named in EVM_RPC_URLS by hex id or found behind EVM_RPC_URL). Its name is its
 * hex id, its currency ETH with 18 decimals (what the node does not say), and it has no explorer.
 */
export function chainOrCustom(id: number): Chain {
  const known = byId.get(id) ?? custom.get(id);
  if (known) return known;
  const viem = defineChain({ id, name: `Chain ${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } });
  const chain = define(`0x${id.toString(16)}`, `Chain ${id}`, viem, BOTH);
  custom.set(id, chain);
  return chain;
}
const custom = new Map<number, Chain>();

/** A chain this server answers for, the operations it is answered for, and which family of sources reads it. */
export interface ServedChain {
  chain: Chain;
  operations: readonly ChainOperation[];
  source: 'node' | 'hosted';
}

/** What the chain rule decides with: the served chains, the chain a request naming none means, nodes not heard from yet. */
export interface ChainService {
  chains: readonly ServedChain[];
  /** DEFAULT_CHAIN's chain (or, unset, the first node's; else eth); undefined while its node has not said which it is. */
  fallback: Chain | undefined;
  /** Nodes whose chain is not known yet (down since start-up), in words: `EVM_RPC_URL (rpc.example:8545)`. */
  pending: readonly string[];
}

/**
 * The hosted API's chains: every chain of the interface's tables, each for the operations its tables
 * list it for; the local devnets too when the hosted API is another Lantern that reads them.
 */
export function hostedTables(opts: { devnets: boolean }): ServedChain[] {
  return allChains.filter((c) => !c.devnet || opts.devnets).map((chain) => ({ chain, operations: chain.operations, source: 'hosted' as const }));
}

const OPERATION_LABEL: Record<ChainOperation, string> = { history: 'wallet history', nfts: 'wallet NFTs' };

const named = (c: Chain) => `${c.name} (${c.hex})`;

/**
 * The chain rule, pure: the chain a request's `chain` (or its absence) means on a server serving
 * `service`. Nothing served can read it -> 400 naming `chain` and listing the chains this server serves
 * for the operation; the chain may be behind a node that has not answered yet -> 503.
 * Only lib/operations/chains.ts calls it (lint holds this), with the served chains lib/sources picked.
 */
export function resolveChain(value: string | null | undefined, operation: ChainOperation, service: ChainService): Chain {
  const allowed = service.chains.filter((s) => s.operations.includes(operation));
  // Worded only for a refusal: a served chain (every request's case) needs neither.
  const list = () => allowed.map((s) => named(s.chain)).join(', ') || 'none';
  const waiting = () => (service.pending.length > 0 ? `; not known yet: which chain ${service.pending.join(', ')} serves (not answering)` : '');
  if (value === undefined || value === null || value.trim() === '') {
    const fallback = service.fallback;
    if (!fallback) throw notYet(`no chain named, and the default chain is the one ${service.pending.join(', ')} serves, which has not answered yet`);
    if (allowed.some((s) => s.chain.id === fallback.id)) return allowed.find((s) => s.chain.id === fallback.id)!.chain;
    throw badParameter('chain', `chain: no chain named, and the default chain ${named(fallback)} is not served for ${OPERATION_LABEL[operation]}; this Lantern serves: ${list()}`);
  }
  const id = hexChainId(value);
  const wanted = id !== undefined ? service.chains.find((s) => s.chain.id === id) : service.chains.find((s) => s.chain.name === normaliseName(value));
  if (wanted && wanted.operations.includes(operation)) return wanted.chain;
  const known = wanted?.chain ?? findChain(value) ?? (id !== undefined ? chainOrCustom(id) : undefined);
  const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
  if (!wanted && service.pending.length > 0) {
    throw notYet(`${known ? named(known) : `"${shown}"`} is not among the chains this Lantern serves now (${list()})${waiting()}`);
  }
  const why = wanted
    ? `${named(wanted.chain)} is not available for ${OPERATION_LABEL[operation]}`
    : known
      ? `${named(known)} is not served by this Lantern (no node for it${service.chains.some((s) => s.source === 'hosted') ? ', and not a chain of the hosted API' : ''})`
      : `unknown chain "${shown}"`;
  throw badParameter('chain', `chain: ${why}; this Lantern serves: ${list()}`);
}

function notYet(why: string): LanternError {
  return new LanternError(503, 'upstream_unavailable', `chain: ${why}. Try again shortly.`, { retryAfter: 5, parameter: 'chain' });
}

export type PublicChain = Omit<Chain, 'viem'>;

/** Plain data for client components and JSON: viem chain objects may carry formatter functions. */
export function publicChain({ viem: _viem, ...rest }: Chain): PublicChain {
  return rest;
}
