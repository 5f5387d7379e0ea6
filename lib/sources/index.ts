import 'server-only';
import { config, type Config } from '@/lib/config';
import { evmNodeBreaker, hostedBreaker, hostOf, ledgerNodeBreaker } from './breakers';
import { ensNames } from './ens';
import {
  nodeActivity,
  nodeBalance,
  nodeChains,
  nodeFollow,
  nodeHistory,
  nodeHoldings,
  nodeNftResync,
  nodeNfts,
  nodeTokenFacts,
  nodeTx,
} from './evm-node/source';
import { hostedBalance, hostedChains, hostedHistory, hostedHoldings, hostedLedger, hostedNftResync, hostedNfts, hostedSignIn, hostedTx } from './hosted';
import { nodeLedger } from './ledger-node';
import { localSignIn } from './siwe-local';
import type { SourceDescription, SourceProbe, Sources } from './types';

export type * from './types';

/**
 * The one place that chooses sources. DATA_API_KEY set: the hosted data API answers wallet data and
 * sign-in, and the hosted ledger API mainnet and testnet. Unset: Lantern's own EVM node source, local
 * SIWE verification and ledger REST nodes. The `local` ledger network is always the simulated ledger.
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
  const common = { devnet: c.acceptDevnet, names: ensNames };
  if (c.mode === 'hosted') {
    return {
      ...common,
      kind: 'hosted',
      chains: hostedChains,
      history: hostedHistory,
      nfts: hostedNfts,
      balance: hostedBalance,
      holdings: hostedHoldings,
      transaction: hostedTx,
      nftResync: hostedNftResync,
      tokenFacts: null,
      activity: null,
      follow: null,
      signIn: hostedSignIn,
      ledger: (network) => (network === 'local' ? nodeLedger('local') : hostedLedger(network)),
      describe: () => describe(c, true),
      probes: () => [
        { name: 'data_api', breaker: hostedBreaker('data', c.dataApiUrl), url: c.dataApiUrl, check: 'reach' },
        { name: 'auth_api', breaker: hostedBreaker('auth', c.authApiUrl), url: c.authApiUrl, check: 'reach' },
        localLedgerProbe(c),
      ],
    };
  }
  return {
    ...common,
    kind: 'node',
    chains: nodeChains,
    history: nodeHistory,
    nfts: nodeNfts,
    balance: nodeBalance,
    holdings: nodeHoldings,
    transaction: nodeTx,
    nftResync: nodeNftResync,
    tokenFacts: nodeTokenFacts,
    activity: nodeActivity,
    follow: nodeFollow,
    signIn: localSignIn,
    ledger: nodeLedger,
    describe: () => describe(c, false),
    probes: () => [{ name: 'evm_node', breaker: evmNodeBreaker(c.evmRpcUrl), url: c.evmRpcUrl, check: 'rpc' }, localLedgerProbe(c)],
  };
}

function localLedgerProbe(c: Config): SourceProbe {
  return { name: 'ledger_local', breaker: ledgerNodeBreaker('local', c.ledgerUrls.local), url: c.ledgerUrls.local, check: 'reach' };
}

/** Which source answers each operation, safe to show anyone: hosts only (URLs often carry a key). */
function describe(c: Config, hosted: boolean): SourceDescription[] {
  const host = (u: string) => (hostOf(u) === 'unknown host' ? 'unknown' : hostOf(u));
  const evm = c.evmIsDevnet ? 'Local EVM devnet (anvil)' : 'Your EVM JSON-RPC node';
  return [
    { operation: 'Wallet history', source: hosted ? 'Hosted data API' : evm, host: host(hosted ? c.dataApiUrl : c.evmRpcUrl) },
    { operation: 'Wallet NFTs', source: hosted ? 'Hosted data API' : evm, host: host(hosted ? c.dataApiUrl : c.evmRpcUrl) },
    { operation: 'Wallet tokens and approvals', source: hosted ? 'Hosted data API' : evm, host: host(hosted ? c.dataApiUrl : c.evmRpcUrl) },
    { operation: 'Sign-in verification', source: hosted ? 'Hosted auth API' : 'Local signature verification', host: hosted ? host(c.authApiUrl) : 'this server' },
    { operation: 'Ledger blocks (mainnet)', source: hosted ? 'Hosted ledger API' : 'Ledger REST node', host: host(c.ledgerUrls.mainnet) },
    { operation: 'Ledger blocks (testnet)', source: hosted ? 'Hosted ledger API' : 'Ledger REST node', host: host(c.ledgerUrls.testnet) },
    { operation: 'Ledger blocks (local)', source: 'Simulated local ledger', host: host(c.ledgerUrls.local) },
  ];
}
