import { formatUnits } from '@/lib/format';
import type { ReadableArg, ReadableName } from './tx-readable';

/**
 * How the transaction page shows a decoded call's or log's arguments, like a receipt: addresses as
 * labelled links, amounts in the token's units where the contract is a token Lantern read the decimals
 * of and the argument is its amount, everything else as decoded. The raw value stays beside each one.
 */

export interface TokenUnits {
  symbol: string | null;
  name: string | null;
  decimals: number | null;
}

export interface ShownArg {
  name: string;
  type: string;
  /** The decoded value as the ABI reads it (base units, lower or mixed case address). */
  raw: string;
  kind: 'address' | 'amount' | 'plain';
  /** For `amount`: `1.5 USDC`. */
  amount: string | null;
  components: ShownArg[] | null;
}

/**
 * A token's amount argument, by name: the standards' `value` / `amount` and WETH9's `wad`, and names that
 * say amount (`amountIn`). Not ids, not counts: an ERC-1155 `value` is a count, so the caller passes no
 * units for an ERC-1155 contract.
 */
const AMOUNT = /amount|^_?(value|wad)$/i;

export function shownArgs(args: ReadableArg[] | null, units: TokenUnits | null | undefined): ShownArg[] | null {
  if (!args) return null;
  const decimals = units?.decimals;
  return args.map((a) => {
    const base = { name: a.name, type: a.type, raw: a.value, amount: null, components: shownArgs(a.components ?? null, units) };
    if (a.type === 'address') return { ...base, kind: 'address' as const };
    if (decimals != null && /^uint\d*$/.test(a.type) && AMOUNT.test(a.name) && /^\d+$/.test(a.value)) {
      const symbol = units?.symbol ?? units?.name;
      return { ...base, kind: 'amount' as const, amount: `${formatUnits(a.value, decimals).text}${symbol ? ` ${symbol}` : ''}` };
    }
    return { ...base, kind: 'plain' as const };
  });
}

/** The raw form of a decoded call or event, one click away: `Name(a: 1, b: 0x…)` as the ABI decodes it. */
export function rawText(n: ReadableName): string {
  const line = (name: string, args: ReadableArg[] | null) => (args ? `${name}(${args.map((a) => `${a.name}: ${a.value}`).join(', ')})` : name);
  if (n.state === 'named') return line(n.name!, n.args);
  if (n.state === 'ambiguous') return n.candidates.map((c) => line(c.name, c.args)).join(' | ');
  return n.text;
}
