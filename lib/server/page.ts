import 'server-only';
import { notFound, permanentRedirect } from 'next/navigation';
import { getAddress } from 'viem';
import { chainsFor, resolveChain, type Chain, type ChainOperation } from '@/lib/chains';
import { config } from '@/lib/config';
import { isLanternError } from '@/lib/errors';
import { log } from '@/lib/log';
import type { ErrorInfo } from '@/lib/view/error-copy';
import type { ChainView } from '@/lib/view/tx-view';
import { ADDRESS_RE } from '@/lib/format';


type RawSearchParams = Record<string, string | string[] | undefined>;

/**
 * The wallet a URL names. Not an address: the wallet 404 page. Not checksummed (any other case):
 * a permanent redirect to the checksummed URL, keeping the rest of the path and the query, so
 * every wallet has exactly one URL to share.
 */
export function walletFromParam(param: string, opts: { suffix?: string; searchParams?: RawSearchParams } = {}): `0x${string}` {
  const decoded = safeDecode(param);
  if (!ADDRESS_RE.test(decoded)) notFound();
  const checksummed = getAddress(decoded.toLowerCase());
  if (checksummed !== decoded) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.searchParams ?? {})) for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) qs.append(k, x);
    const query = qs.size ? `?${qs}` : '';
    permanentRedirect(`/wallet/${checksummed}${opts.suffix ?? ''}${query}`);
  }
  return checksummed;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Lantern reads the devnet, or fronts a Lantern that does (DEFAULT_CHAIN=devnet). */
export function isDevnetMode(): boolean {
  return config().acceptDevnet;
}

export function toChainView(chain: Chain): ChainView {
  return { name: chain.name, label: chain.label, symbol: chain.nativeCurrency.symbol, decimals: chain.nativeCurrency.decimals, explorerUrl: chain.explorerUrl };
}

/** The chain a view asks for, or the error to show when the URL names an unknown one. */
export function chainForView(value: string | null, operation: ChainOperation): { chain: Chain } | { error: ErrorInfo } {
  try {
    return { chain: resolveChain(value ?? undefined, operation, { devnet: isDevnetMode() }) };
  } catch (e) {
    return { error: toErrorInfo(e) };
  }
}

/** Chains a person can pick on this server, for the chain menus and the "try another chain" links. */
export function chainOptions(operation: ChainOperation): { name: string; label: string }[] {
  return chainsFor(operation, { devnet: isDevnetMode() }).map((c) => ({ name: c.name, label: c.label }));
}

export function toErrorInfo(e: unknown): ErrorInfo {
  if (isLanternError(e)) return { code: e.code, message: e.message, status: e.status, ...(e.parameter ? { parameter: e.parameter } : {}) };
  log().error({ err: e instanceof Error ? (e.stack ?? e.message) : String(e) }, 'page: unexpected error');
  return { code: 'internal_error', message: 'Lantern failed unexpectedly; the error has been logged.', status: 500 };
}

/** The chain a view uses when its URL names none (the devnet on a devnet server, else Ethereum). */
export function defaultChainName(operation: ChainOperation): string {
  return resolveChain(undefined, operation, { devnet: isDevnetMode() }).name;
}

/** The server's clock at render time: ages in the HTML and after hydration are computed from it. */
export function renderTime(): number {
  return Date.now();
}
