import type { HistoryPageWire } from '@/lib/interface/history';
import type { ErrorInfo } from '@/lib/view/error-copy';
import { ZERO_ADDRESS, formatDecimal, formatUnits, sameAddress } from '@/lib/format';
import { isSpamTransaction } from '@/lib/spam';

/**
 * What a history row shows, derived from one transaction of the published API's answer, relative to
 * the wallet being read. Works on the wire shape so the server's first page and the browser's later
 * pages go through the same code. Pure: no fetching, no config.
 */

export type WireTransaction = HistoryPageWire['result'][number];

/** What the page knows about the chain, passed from the server (lib/chains is server-side). */
export interface ChainView {
  name: string;
  label: string;
  symbol: string;
  decimals: number;
  explorerUrl: string | null;
}

export interface Party {
  address: string | null;
  /** Saved label of the signed-in person, else the source's label, else its entity. */
  label: string | null;
  labelSource: 'saved' | 'source' | 'entity' | 'ens' | null;
  logo: string | null;
  /** A mint or burn: the zero address, named as such. */
  special: 'mint' | 'burn' | 'creation' | null;
}

export type MovementKind = 'native' | 'erc20' | 'erc721' | 'erc1155';

export interface Transfer {
  kind: MovementKind;
  from: string | null;
  to: string | null;
  /** `in` / `out` relative to the wallet, `self` both, `other` neither (someone else's leg of a multi-transfer). */
  direction: 'in' | 'out' | 'self' | 'other';
  amount: { text: string; full: string; exact: boolean } | null;
  symbol: string | null;
  tokenAddress: string | null;
  tokenName: string | null;
  tokenId: string | null;
  internal: boolean;
  spam: boolean;
}

export interface InternalCall {
  type: string | null;
  from: string | null;
  to: string | null;
  value: { text: string; full: string; exact: boolean } | null;
}

export interface TxView {
  hash: string;
  block: string;
  timestamp: string;
  failed: boolean;
  category: string;
  summary: string | null;
  method: string | null;
  /** The wallet's side: received, sent, both (swap), to itself, or none (a call that moved nothing). */
  direction: 'in' | 'out' | 'swap' | 'self';
  counterparty: Party | null;
  /** Movements of this wallet, for the row; every transfer of the transaction, for the details. */
  movements: Transfer[];
  transfers: Transfer[];
  internalCalls: InternalCall[] | null;
  fee: { text: string; full: string; exact: boolean } | null;
  feePaidByWallet: boolean;
  spam: boolean;
  from: string;
  to: string | null;
  nonce: string | null;
}

/**
 * The first page as the server read it (the paging client's seed) and described it (what the list shows:
 * the browser does not download the describing code until a person pages).
 */
export type InitialHistory = { ok: true; page: HistoryPageWire; rows: TxView[] } | { ok: false; error: ErrorInfo };

type Flag = boolean | string | null | undefined;
const flag = (v: Flag) => v === true || v === 'true';

export type SavedLabels = Record<string, string>;
/** Lower-case address -> primary ENS name, resolved on the server where ENS_RPC_URL is set. */
export type EnsNames = Record<string, string>;
/** What a party may be called, in order: the viewer's saved label, the source's label or entity, ENS. */
interface Names {
  labels: SavedLabels;
  ens: EnsNames;
}

interface PartyFields {
  from_address?: string | null;
  from_address_label?: string | null;
  from_address_entity?: string | null;
  from_address_entity_logo?: string | null;
  to_address?: string | null;
  to_address_label?: string | null;
  to_address_entity?: string | null;
  to_address_entity_logo?: string | null;
}

function side(wallet: string, from: string | null | undefined, to: string | null | undefined): Transfer['direction'] {
  const out = sameAddress(from, wallet);
  const inn = sameAddress(to, wallet);
  return out && inn ? 'self' : out ? 'out' : inn ? 'in' : 'other';
}

function partyOf(which: 'from' | 'to', f: PartyFields, names: Names): Party {
  const address = (which === 'from' ? f.from_address : f.to_address) ?? null;
  const saved = address ? names.labels[address.toLowerCase()] : undefined;
  const label = which === 'from' ? f.from_address_label : f.to_address_label;
  const entity = which === 'from' ? f.from_address_entity : f.to_address_entity;
  const logo = (which === 'from' ? f.from_address_entity_logo : f.to_address_entity_logo) ?? null;
  const special = sameAddress(address, ZERO_ADDRESS) ? (which === 'from' ? 'mint' : 'burn') : null;
  if (saved) return { address, label: saved, labelSource: 'saved', logo: null, special };
  if (label) return { address, label, labelSource: 'source', logo, special };
  if (entity) return { address, label: entity, labelSource: 'entity', logo, special };
  return { address, label: null, labelSource: null, logo: null, special };
}

/**
 * Parties named on a transfer are often bare; the transaction's own from/to carry the labels, and else a
 * transfer of it that names the same address (a token's recipient: the devnets' public labels, alice).
 */
function enrich(p: Party, tx: WireTransaction, names: Names): Party {
  if (p.label || !p.address) return p;
  if (sameAddress(p.address, tx.to_address)) return { ...partyOf('to', tx, names), special: p.special };
  if (sameAddress(p.address, tx.from_address)) return { ...partyOf('from', tx, names), special: p.special };
  for (const t of [...(tx.native_transfers ?? []), ...(tx.erc20_transfer ?? []), ...(tx.nft_transfers ?? [])] as PartyFields[]) {
    for (const which of ['to', 'from'] as const) {
      const named = partyOf(which, t, names);
      if (named.label && sameAddress(named.address, p.address)) return { ...named, special: p.special };
    }
  }
  return p;
}

/** ENS is the last resort: applied once every label the transaction itself carries was tried. */
function withEns(p: Party | null, names: Names): Party | null {
  if (!p || p.label || !p.address || p.special === 'mint' || p.special === 'burn') return p;
  const ens = names.ens[p.address.toLowerCase()];
  return ens ? { ...p, label: ens, labelSource: 'ens' } : p;
}

function nativeAmount(raw: string | null | undefined, formatted: string | null | undefined, chain: ChainView) {
  if (raw && /^\d+$/.test(raw)) return formatUnits(raw, chain.decimals);
  if (formatted) return formatDecimal(formatted);
  return null;
}

export function describeTransaction(tx: WireTransaction, wallet: string, chain: ChainView, labels: SavedLabels = {}, ens: EnsNames = {}): TxView {
  const names: Names = { labels, ens };
  const transfers: Transfer[] = [];

  const natives = tx.native_transfers ?? [];
  for (const n of natives) {
    transfers.push({
      kind: 'native',
      from: n.from_address ?? null,
      to: n.to_address ?? null,
      direction: side(wallet, n.from_address, n.to_address),
      amount: nativeAmount(n.value, n.value_formatted, chain),
      symbol: n.token_symbol ?? chain.symbol,
      tokenAddress: null,
      tokenName: null,
      tokenId: null,
      internal: flag(n.internal_transaction),
      spam: false,
    });
  }
  // A source that lists no top-level transfer still moved the transaction's value.
  if (tx.value !== '0' && !natives.some((n) => !flag(n.internal_transaction))) {
    transfers.unshift({
      kind: 'native',
      from: tx.from_address,
      to: tx.to_address ?? null,
      direction: side(wallet, tx.from_address, tx.to_address),
      amount: nativeAmount(tx.value, null, chain),
      symbol: chain.symbol,
      tokenAddress: null,
      tokenName: null,
      tokenId: null,
      internal: false,
      spam: false,
    });
  }

  for (const t of tx.erc20_transfer ?? []) {
    const decimals = t.token_decimals !== null && t.token_decimals !== undefined ? Number(t.token_decimals) : null;
    transfers.push({
      kind: 'erc20',
      from: t.from_address ?? null,
      to: t.to_address ?? null,
      direction: side(wallet, t.from_address, t.to_address),
      amount: decimals !== null ? formatUnits(t.value, decimals) : t.value_formatted ? formatDecimal(t.value_formatted) : formatUnits(t.value, 0),
      symbol: t.token_symbol ?? null,
      tokenAddress: t.address,
      tokenName: t.token_name ?? null,
      tokenId: null,
      internal: false,
      spam: flag(t.possible_spam),
    });
  }

  for (const t of tx.nft_transfers ?? []) {
    const is1155 = (t.contract_type ?? '').toUpperCase() === 'ERC1155';
    const amount = t.amount ?? '1';
    transfers.push({
      kind: is1155 ? 'erc1155' : 'erc721',
      from: t.from_address ?? null,
      to: t.to_address ?? null,
      direction: side(wallet, t.from_address, t.to_address),
      amount: formatUnits(amount, 0),
      symbol: null,
      tokenAddress: t.token_address,
      tokenName: null,
      tokenId: t.token_id,
      internal: false,
      spam: flag(t.possible_spam),
    });
  }

  const movements = transfers.filter((t) => t.direction !== 'other');
  const ins = movements.some((m) => m.direction === 'in');
  const outs = movements.some((m) => m.direction === 'out');
  const selfOnly = movements.length > 0 && movements.every((m) => m.direction === 'self');
  const sentByWallet = sameAddress(tx.from_address, wallet);
  let direction: TxView['direction'];
  if (ins && outs) direction = 'swap';
  else if (outs) direction = 'out';
  else if (ins) direction = 'in';
  else if (selfOnly || (sentByWallet && sameAddress(tx.to_address, wallet))) direction = 'self';
  else direction = sentByWallet ? 'out' : 'in';

  let counterparty: Party | null;
  const firstOut = movements.find((m) => m.direction === 'out');
  const firstIn = movements.find((m) => m.direction === 'in');
  if (direction === 'swap' || direction === 'self') {
    counterparty = tx.to_address ? partyOf('to', tx, names) : null;
  } else if (direction === 'out') {
    counterparty = firstOut
      ? enrich(partyOf('to', { to_address: firstOut.to }, names), tx, names)
      : tx.to_address
        ? partyOf('to', tx, names)
        : null;
  } else {
    counterparty = firstIn ? enrich(partyOf('from', { from_address: firstIn.from }, names), tx, names) : partyOf('from', tx, names);
  }
  if (!counterparty && !tx.to_address && tx.receipt_contract_address) {
    counterparty = { address: tx.receipt_contract_address, label: null, labelSource: null, logo: null, special: 'creation' };
  }

  const internalCalls =
    tx.internal_transactions === undefined
      ? null
      : tx.internal_transactions.map((i) => ({
          type: i.type ?? null,
          from: i.from ?? null,
          to: i.to ?? null,
          value: i.value ? formatUnits(i.value, chain.decimals) : null,
        }));

  const feeRaw =
    tx.receipt_gas_used && tx.gas_price && /^\d+$/.test(tx.receipt_gas_used) && /^\d+$/.test(tx.gas_price)
      ? formatUnits((BigInt(tx.receipt_gas_used) * BigInt(tx.gas_price)).toString(), chain.decimals)
      : null;
  const fee = tx.transaction_fee ? formatDecimal(tx.transaction_fee) : feeRaw;

  // The source's own judgement (a hosted API has more than these flags to go on), else the one rule.
  const spam = flag(tx.possible_spam) || isSpamTransaction(sentByWallet, transfers);

  return {
    hash: tx.hash,
    block: tx.block_number,
    timestamp: tx.block_timestamp,
    failed: tx.receipt_status === '0',
    category: tx.category ?? fallbackCategory(direction, movements, sentByWallet),
    summary: tx.summary ?? null,
    method: tx.method_label ?? methodSelector(tx),
    direction,
    counterparty: withEns(counterparty, names),
    movements,
    transfers,
    internalCalls,
    fee,
    feePaidByWallet: sentByWallet,
    spam,
    from: tx.from_address,
    to: tx.to_address ?? null,
    nonce: tx.nonce ?? null,
  };
}

function methodSelector(tx: WireTransaction): string | null {
  const input = (tx as { input?: unknown }).input;
  return typeof input === 'string' && /^0x[0-9a-fA-F]{8}/.test(input) ? input.slice(0, 10) : null;
}

function fallbackCategory(direction: TxView['direction'], movements: Transfer[], sentByWallet: boolean): string {
  if (direction === 'swap') return 'token swap';
  const nft = movements.some((m) => m.kind === 'erc721' || m.kind === 'erc1155');
  const token = movements.some((m) => m.kind === 'erc20');
  if (direction === 'in') return nft ? 'nft receive' : token ? 'token receive' : movements.length ? 'receive' : 'contract interaction';
  if (direction === 'out') return nft ? 'nft send' : token ? 'token send' : movements.length ? 'send' : sentByWallet ? 'contract interaction' : 'receive';
  return 'contract interaction';
}

