import 'server-only';
import { LOCAL_DEVNETS, chainById, chainOrCustom, hostedTables, type Chain, type ChainService, type ServedChain } from '@/lib/chains';
import { config, type Config } from '@/lib/config';
import { hostedBreaker, hostOf, ledgerNodeBreaker } from './breakers';
import { ensNames } from './ens';
import { checkEvmNodes, evmNodeChains, evmNodeList } from './evm-nodes';
import { nodeEvm } from './evm-node/source';
import { hostedEvm, hostedLedger, hostedSignIn } from './hosted';
import { nodeLedger } from './ledger-node';
import { localSignIn } from './siwe-local';
import type { EvmSources, HistoryCoverage, SourceDescription, SourceProbe, Sources } from './types';

export type * from './types';

/**
 * The one place that chooses sources, per (operation, chain).
 *
 * EVM chains: a chain with a node (EVM_RPC_URL, EVM_RPC_URLS; the two local devnets by default) is read
 * from its node, for every operation. With DATA_API_KEY set, every other chain of the interface's tables
 * goes to the hosted data API, for the operations its tables list it for (the local devnets too when
 * DEFAULT_CHAIN names one: the hosted API is then another Lantern reading them). Nothing else is served.
 * Sign-in and the mainnet/testnet ledgers: the hosted API with a key, else local verification and the
 * ledger REST nodes. The `local` ledger network is always the simulated ledger.
 * Operations ask `sources()`; no other module reads the mode.
 */
export function sources(): Sources {
  const c = config();
  // Chosen once per parsed configuration (tests that change the environment get a new one).
  if (picked?.config !== c) picked = { config: c, sources: pick(c) };
  return picked.sources;
}

let picked: { config: Config; sources: Sources } | undefined;

function pick(c: Config): Sources {
  const hosted = c.mode === 'hosted';
  const nodeServes = (id: number) => evmNodeList().some((n) => n.chain?.id === id);
  const evm = (chain: Chain): EvmSources => (!hosted || nodeServes(chain.id) ? nodeEvm(chain) : hostedEvm);
  return {
    kind: c.mode,
    chains: () => servedChains(c),
    evm,
    signIn: hosted ? hostedSignIn : localSignIn,
    ledger: hosted ? (network) => (network === 'local' ? nodeLedger('local') : hostedLedger(network)) : nodeLedger,
    names: ensNames,
    describe: () => describe(c),
    probes: () => probes(c),
    coverage: async (ms) => {
      const { chains } = await evmNodeChains(Math.min(ms, 500));
      const out = await Promise.all(chains.map(async ({ chain }) => [chain.name, await nodeEvm(chain).history.coverage(ms)] as const));
      return Object.fromEntries(out.filter((e): e is [string, HistoryCoverage] => e[1] !== null));
    },
    checkNodes: checkEvmNodes,
  };
}

/** The chains served, each by its node or the hosted API, and the chain a request naming none means. */
async function servedChains(c: Config): Promise<ChainService> {
  const nodes = await evmNodeChains();
  const byNode: ServedChain[] = nodes.chains.map(({ chain }) => ({ chain, operations: ['history', 'nfts'], source: 'node' }));
  const taken = new Set(byNode.map((s) => s.chain.id));
  const byHosted = c.mode === 'hosted' ? hostedTables({ devnets: c.hostedDevnets }).filter((s) => !taken.has(s.chain.id)) : [];
  const chains = [...byNode, ...byHosted];
  // DEFAULT_CHAIN; unset, the first node's chain (EVM_RPC_URL's once its node has said it), else eth.
  const first = evmNodeList()[0];
  const fallback = c.defaultChainId !== null ? chainOrCustom(c.defaultChainId) : first ? (first.chain ?? undefined) : chainById(1);
  return { chains, fallback, pending: nodes.pending };
}

const hostOnly = (u: string) => (hostOf(u) === 'unknown host' ? 'unknown' : hostOf(u));

/** Which source answers what, per chain, safe to show anyone: hosts only (URLs often carry a key). */
async function describe(c: Config): Promise<SourceDescription[]> {
  const hosted = c.mode === 'hosted';
  const wallet = 'Wallet history, NFTs, balances, tokens and approvals, transactions';
  const nodes = evmNodeList();
  await evmNodeChains(); // EVM_RPC_URL's chain, if its node has said it since
  const rows: SourceDescription[] = nodes.map((n) => ({
    operation: wallet,
    chain: n.chain ? `${n.chain.label} (${n.chain.name}, ${n.chain.hex})` : `the chain of ${n.variable}'s node (not known yet)`,
    source: n.chain && LOCAL_DEVNETS.includes(n.chain) ? 'Local EVM devnet (anvil)' : 'Your EVM JSON-RPC node',
    host: n.host === 'unknown host' ? 'unknown' : n.host,
  }));
  if (hosted) {
    rows.push({
      operation: wallet,
      chain: nodes.length > 0 ? 'Every other chain of the interface' : c.hostedDevnets ? 'Every chain of the interface, and the local devnets' : 'Every chain of the interface',
      source: 'Hosted data API',
      host: hostOnly(c.dataApiUrl),
    });
  }
  rows.push(
    { operation: 'Sign-in verification', chain: hosted ? 'Any chain' : 'Chains with a node', source: hosted ? 'Hosted auth API' : 'Local signature verification', host: hosted ? hostOnly(c.authApiUrl) : 'this server' },
    { operation: 'Ledger blocks', chain: 'mainnet', source: hosted ? 'Hosted ledger API' : 'Ledger REST node', host: hostOnly(c.ledgerUrls.mainnet) },
    { operation: 'Ledger blocks', chain: 'testnet', source: hosted ? 'Hosted ledger API' : 'Ledger REST node', host: hostOnly(c.ledgerUrls.testnet) },
    { operation: 'Ledger blocks', chain: 'local', source: 'Simulated local ledger', host: hostOnly(c.ledgerUrls.local) },
  );
  return rows;
}

/** What health checks: each EVM node (by chain), the hosted services with a key, the local ledger. */
async function probes(c: Config): Promise<SourceProbe[]> {
  await evmNodeChains();
  const nodes: SourceProbe[] = evmNodeList().map((n) => ({
    name: n.key,
    group: 'evm_nodes',
    breaker: n.node?.breaker ?? null,
    url: c.evmNodes.find((x) => x.variable === n.variable)!.url,
    check: 'rpc',
    about: { chain_id: n.chain?.hex ?? null, host: n.host },
    ...(n.refused ? { pending: `refused: ${n.refused}` } : n.node ? {} : { pending: `has not said which chain it serves yet (${n.variable})` }),
  }));
  const ledgerLocal: SourceProbe = { name: 'ledger_local', breaker: ledgerNodeBreaker('local', c.ledgerUrls.local), url: c.ledgerUrls.local, check: 'reach' };
  if (c.mode !== 'hosted') return [...nodes, ledgerLocal];
  return [
    ...nodes,
    { name: 'data_api', breaker: hostedBreaker('data', c.dataApiUrl), url: c.dataApiUrl, check: 'reach' },
    { name: 'auth_api', breaker: hostedBreaker('auth', c.authApiUrl), url: c.authApiUrl, check: 'reach' },
    ledgerLocal,
  ];
}
