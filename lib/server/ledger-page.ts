import 'server-only';
import { redirect } from 'next/navigation';
import { queryBoolean } from '@/lib/interface/common';
import { ledgerNetworkSchema, ledgerVersionSchema, type LedgerBlock, type LedgerNetworkName, type LedgerVersion } from '@/lib/interface/ledger';
import { getBlockByVersion } from '@/lib/operations/ledger-block';
import type { ErrorInfo } from '@/lib/view/error-copy';
import { toBlockView, type BlockView } from '@/lib/view/ledger-block';
import { renderTime, safeDecode, toErrorInfo } from './page';

/** What `/ledger/{network}/versions/{version}` asks for, as far as its URL says. */
export interface LedgerPageRoute {
  /** The network and version asked for, both valid; null with `failure` set when either is not. */
  target: { network: LedgerNetworkName; version: LedgerVersion } | null;
  failure: ErrorInfo | undefined;
  /** The network the page's search box and banner are for ('local' when the URL's is not one). */
  net: LedgerNetworkName;
  /** The network the switch marks ('' when the URL's is not one). */
  current: string;
  /** The version as the page shows it: canonical when valid, else what was typed (cut at 80). */
  shown: string;
  withTransactions: boolean;
  /** `?with_transactions=false` or '', kept on every link of the page. */
  query: string;
  /** This page's URL on another network. */
  path: (network: string) => string;
}

/** On the page transactions are shown unless `?with_transactions=false` (the API's default is the opposite). */
function pageWithTransactions(raw: string | string[] | undefined): boolean {
  if (raw === undefined || Array.isArray(raw)) return true;
  const r = queryBoolean.safeParse(raw);
  return r.success ? (r.data ?? true) : true;
}

/** The page's URL read, or a redirect to the one URL of its version (007 -> 7). */
export function ledgerPageRoute(rawNetwork: string, rawVersion: string, withTransactionsParam: string | string[] | undefined): LedgerPageRoute {
  const withTransactions = pageWithTransactions(withTransactionsParam);
  const query = withTransactions ? '' : '?with_transactions=false';
  const versionText = safeDecode(rawVersion);

  const network = ledgerNetworkSchema.safeParse(rawNetwork);
  const version = ledgerVersionSchema.safeParse(versionText);
  if (network.success && version.success && version.data !== versionText) {
    redirect(`/ledger/${network.data}/versions/${version.data}${query}`); // one URL per version (007 -> 7)
  }
  const path = (n: string) => `/ledger/${n}/versions/${version.success ? version.data : encodeURIComponent(versionText)}${query}`;

  let failure: ErrorInfo | undefined;
  if (!network.success) failure = { code: 'invalid_parameter', parameter: 'network', status: 400, message: `“${rawNetwork.slice(0, 80)}” is not a ledger network Lantern knows.` };
  else if (!version.success) failure = { code: 'invalid_parameter', parameter: 'version', status: 400, message: `“${versionText.slice(0, 80)}” is not a valid version.` };

  return {
    target: network.success && version.success ? { network: network.data, version: version.data } : null,
    failure,
    net: network.success ? network.data : 'local',
    current: network.success ? network.data : '',
    shown: version.success ? version.data : versionText.slice(0, 80),
    withTransactions,
    query,
    path,
  };
}

export type LedgerBlockData = { block: BlockView; now: number } | { error: ErrorInfo };

/** The block that holds a version, as the page shows it, or the error to show in its place. */
export async function loadLedgerBlock(network: LedgerNetworkName, version: LedgerVersion, withTransactions: boolean): Promise<LedgerBlockData> {
  let block: LedgerBlock;
  try {
    block = await getBlockByVersion(network, version, withTransactions);
  } catch (e) {
    return { error: await toErrorInfo(e) };
  }
  return { block: toBlockView(block), now: renderTime() };
}
