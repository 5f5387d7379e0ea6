import 'server-only';
import { sources, type EnsResult } from '@/lib/sources';

export type { EnsResult };

/** The address an ENS name resolves to, or why it cannot be resolved here (said to the person). */
export function resolveName(name: string): Promise<EnsResult> {
  return sources().names.resolve(name);
}

/**
 * Primary ENS names of addresses (lower-case address -> name), for naming counterparties; what does not
 * resolve within a short wait is left out (shown as an address).
 */
export function reverseNames(addresses: string[]): Promise<Record<string, string>> {
  return sources().names.reverse(addresses);
}
