import type { Chain as ViemChain } from 'viem';
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
import { badParameter } from '@/lib/errors';

/**
 * Every chain of the interface's two chain tables (wallet history, wallet NFTs) plus the local devnet.
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
  /** The local devnet: accepted only when the server is configured for it. */
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

export const DEVNET_CHAIN: Chain = define('devnet', 'Local devnet', foundry, BOTH, true);

/** Interface order (NFT table, which contains the history table), then the devnet. */
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
  DEVNET_CHAIN,
];

const byId = new Map(allChains.map((c) => [c.id, c]));

/** `Polygon-Amoy`, `polygon_amoy` and ` polygon  amoy ` all mean `polygon amoy`. */
function normaliseName(value: string): string {
  return value.trim().toLowerCase().replace(/[\s_-]+/g, ' ');
}

/** Looks a chain up by name or hex id, whatever the operation; undefined when unknown. */
export function findChain(value: string): Chain | undefined {
  const v = value.trim();
  if (/^0x[0-9a-f]+$/i.test(v)) return byId.get(Number.parseInt(v.slice(2), 16));
  const name = normaliseName(v);
  return allChains.find((c) => c.name === name);
}

export function chainById(id: number): Chain | undefined {
  return byId.get(id);
}

export function chainsFor(operation: ChainOperation, opts: { devnet: boolean }): Chain[] {
  return allChains.filter((c) => c.operations.includes(operation) && (!c.devnet || opts.devnet));
}

const OPERATION_LABEL: Record<ChainOperation, string> = { history: 'wallet history', nfts: 'wallet NFTs' };

/**
 * The chain a request asks for. Unknown or not offered for this operation -> 400 naming `chain` and
 * listing every allowed value. Default: the devnet when this server runs against one, else `eth`.
 */
export function resolveChain(value: string | undefined, operation: ChainOperation, opts: { devnet: boolean }): Chain {
  if (value === undefined || value.trim() === '') return opts.devnet ? DEVNET_CHAIN : allChains[0];
  const allowed = chainsFor(operation, opts);
  const chain = findChain(value);
  if (chain && allowed.includes(chain)) return chain;
  const list = allowed.map((c) => `${c.name} (${c.hex})`).join(', ');
  const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
  const why = chain ? `${chain.name} is not available for ${OPERATION_LABEL[operation]}` : `unknown chain "${shown}"`;
  throw badParameter('chain', `chain: ${why}; allowed values: ${list}`);
}

export type PublicChain = Omit<Chain, 'viem'>;

/** Plain data for client components and JSON: viem chain objects may carry formatter functions. */
export function publicChain({ viem: _viem, ...rest }: Chain): PublicChain {
  return rest;
}
