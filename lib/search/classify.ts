import { getAddress, isAddress } from 'viem';
import { ADDRESS_RE } from '@/lib/format';

export type SearchTarget =
  | { kind: 'address'; address: string }
  | { kind: 'version'; version: string }
  | { kind: 'ens'; name: string }
  | { kind: 'unknown'; input: string };

const U64_MAX = 18446744073709551615n;

/** What a search box input means: an EVM address (any case), a ledger version (digits) or an ENS name. */
export function classifySearch(raw: string): SearchTarget {
  const input = raw.trim();
  if (ADDRESS_RE.test(input) && isAddress(input, { strict: false })) {
    return { kind: 'address', address: getAddress(input.toLowerCase()) };
  }
  if (/^\d{1,20}$/.test(input) && BigInt(input) <= U64_MAX) return { kind: 'version', version: BigInt(input).toString() };
  if (/^([a-z0-9-]+\.)+eth$/i.test(input) || /^([a-z0-9-]+\.)+[a-z]{2,}$/i.test(input)) return { kind: 'ens', name: input.toLowerCase() };
  return { kind: 'unknown', input };
}
