import 'server-only';
import { headers } from 'next/headers';
import { notFound, permanentRedirect, redirect, unstable_rethrow } from 'next/navigation';
import type { Chain, ChainOperation } from '@/lib/chains';
import { isLanternError } from '@/lib/errors';
import { log } from '@/lib/log';
import { getActiveChains } from '@/lib/operations/active-chains';
import { defaultChain, requestChain, servedChains } from '@/lib/operations/chains';
import { getNativeBalance } from '@/lib/operations/wallet-balance';
import type { ErrorInfo } from '@/lib/view/error-copy';
import type { ChainView } from '@/lib/view/tx-view';
import { checksumWallet, safeDecode } from '@/lib/view/wallet-path';
import { devnetLabel } from '@/lib/devnet/scenario-labels';


type RawSearchParams = Record<string, string | string[] | undefined>;

/**
 * The wallet a URL names. Not an address: the wallet 404 page. Not checksummed (any other case):
 * a permanent redirect to the checksummed URL, keeping the rest of the path and the query, so
 * every wallet has exactly one URL to share.
 */
export function walletFromParam(param: string, opts: { suffix?: string; searchParams?: RawSearchParams } = {}): `0x${string}` {
  const decoded = safeDecode(param);
  const checksummed = checksumWallet(decoded);
  if (!checksummed) notFound();
  if (checksummed !== decoded) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.searchParams ?? {})) for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) qs.append(k, x);
    const query = qs.size ? `?${qs}` : '';
    permanentRedirect(`/wallet/${checksummed}${opts.suffix ?? ''}${query}`);
  }
  return checksummed;
}

export { safeDecode };

export function toChainView(chain: Chain): ChainView {
  return { name: chain.name, label: chain.label, symbol: chain.nativeCurrency.symbol, decimals: chain.nativeCurrency.decimals, explorerUrl: chain.explorerUrl };
}

/** The chain a view asks for (the one chain rule, lib/operations/chains.ts), or the error to show when nothing here reads it. */
export async function chainForView(value: string | null, operation: ChainOperation): Promise<{ chain: Chain } | { error: ErrorInfo }> {
  try {
    return { chain: await requestChain(value, operation) };
  } catch (e) {
    return { error: errorInfo(e, log()) };
  }
}

/** What a wallet tab's page reads before it draws: the wallet, its view of the URL, the chain and the chain menu's entries. */
export type WalletTab<V> =
  | { address: `0x${string}`; view: V; chain: Chain; chains: { name: string; label: string }[]; defaultChain: string }
  | { address: `0x${string}`; error: ErrorInfo; resetHref: string };

/**
 * Every wallet tab (NFTs, tokens, approvals, activity) starts the same way: the wallet its URL names
 * (walletFromParam: a 404, or a redirect to the checksummed URL), opened on the chain where it is active
 * when the URL names none (openOnActiveChain: a redirect), its view read from the URL, then the chain it
 * asks for with the chain menu's entries, or the error to show in its place (with the tab's plain URL
 * to start again from).
 */
export async function walletTab<V extends { chain: string | null }>(
  params: Promise<{ address: string }>,
  searchParams: Promise<RawSearchParams>,
  tab: { suffix: string; path: (address: string) => string; operation: ChainOperation; view: (sp: RawSearchParams) => V },
): Promise<WalletTab<V>> {
  const [{ address: param }, sp] = await Promise.all([params, searchParams]);
  const address = walletFromParam(param, { suffix: tab.suffix, searchParams: sp });
  await openOnActiveChain(address, tab.path(address), sp, tab.operation);
  const view = tab.view(sp);
  const [picked, chains, defaultChain] = await Promise.all([chainForView(view.chain, tab.operation), chainOptions(tab.operation), defaultChainName(tab.operation)]);
  if ('error' in picked) return { address, error: picked.error, resetHref: tab.path(address) };
  return { address, view, chain: picked.chain, chains, defaultChain };
}

/** How long a wallet page waits to learn where a wallet is active before it opens on the default chain. */
const OPENING_BUDGET_MS = 3_000;

/**
 * A wallet page whose URL names no chain opens where the wallet is active: on the default chain when it
 * has activity there (it holds coin there, or that cannot be told within OPENING_BUDGET_MS), else on the first served
 * chain where it has. That chain is then written into the URL (a redirect), so the link shared reloads
 * to the same chain. Only this server's own nodes are asked (and the default chain): opening a page never
 * costs a hosted request per chain.
 */
export async function openOnActiveChain(address: string, path: string, searchParams: RawSearchParams, operation: ChainOperation): Promise<void> {
  if (searchParams.chain !== undefined) return;
  const opening = await activeOpeningChain(address, operation);
  if (!opening) return;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(searchParams)) for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) qs.append(k, x);
  qs.set('chain', opening);
  redirect(`${path}?${qs}`);
}

async function activeOpeningChain(address: string, operation: ChainOperation): Promise<string | null> {
  const [served, fallback] = await Promise.all([servedChains(operation), defaultChain(operation).catch(() => null)]);
  if (!fallback) return null;
  const asked = served.filter((c) => c.source === 'node' || c.id === fallback.id);
  if (asked.length < 2) return null;
  // A wallet holding coin on the default chain has been active there: one cached balance read (the
  // balance header's own) spares the fuller search for most wallets.
  const held = await getNativeBalance(address, { chain: fallback.name }).catch(() => null);
  if (held && BigInt(held.balance) > 0n) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const within = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), OPENING_BUDGET_MS)));
  const answer = await Promise.race([getActiveChains(address, { chains: asked.map((c) => c.name) }).catch(() => null), within]).finally(() => clearTimeout(timer));
  if (!answer) return null;
  const active = new Set(answer.active_chains.filter((c) => c.last_transaction).map((c) => Number(BigInt(c.chain_id))));
  if (active.has(fallback.id)) return null;
  return asked.find((c) => active.has(c.id))?.name ?? null;
}

/** Chains a person can pick on this server (the served ones), for the chain menus and the "try another chain" links. */
export async function chainOptions(operation: ChainOperation): Promise<{ name: string; label: string }[]> {
  return (await servedChains(operation)).map((c) => ({ name: c.name, label: c.label }));
}

/**
 * What a page shows for a failure, logged as the API logs it: an upstream down, slow or behind an open
 * breaker (a LanternError of 5xx) is one warn line with the request id, code and source, no stack;
 * bad input (4xx) is the reader's to fix and not logged; anything unexpected is an error with its stack.
 */
export async function toErrorInfo(e: unknown): Promise<ErrorInfo> {
  return errorInfo(e, await pageLog());
}

function errorInfo(e: unknown, logger: ReturnType<typeof log>): ErrorInfo {
  if (isLanternError(e)) {
    if (e.status >= 500) logger.warn({ status: e.status, code: e.code, source: e.source }, `page: ${e.message}`);
    return { code: e.code, message: e.message, status: e.status, ...(e.parameter ? { parameter: e.parameter } : {}) };
  }
  logger.error({ err: e instanceof Error ? (e.stack ?? e.message) : String(e) }, 'page: unexpected error');
  return { code: 'internal_error', message: 'Lantern failed unexpectedly; the error has been logged.', status: 500 };
}

/** The log with this page request's id (proxy.ts sets it); outside a request (a download's later rows), without. */
async function pageLog() {
  try {
    return log().child({ requestId: (await headers()).get('x-request-id') ?? undefined });
  } catch (e) {
    unstable_rethrow(e);
    return log();
  }
}

/** The chain a view uses when its URL names none (DEFAULT_CHAIN's one meaning); '' when it cannot be known now (its node is down). */
export async function defaultChainName(operation: ChainOperation): Promise<string> {
  return (await defaultChain(operation).catch(() => null))?.name ?? '';
}

/** The server's clock at render time: ages in the HTML and after hydration are computed from it. */
export function renderTime(): number {
  return Date.now();
}

/**
 * What the devnets' scenario calls this address (alice, the pool) where this server serves a devnet: the
 * wallet page's heading names it. Null elsewhere, or for an address the scenario does not know.
 */
export async function publicWalletLabel(address: string): Promise<string | null> {
  const served = await servedChains('history').catch(() => []);
  for (const c of served) {
    const label = c.devnet ? devnetLabel(c.id, address) : null;
    if (label) return label;
  }
  return null;
}
