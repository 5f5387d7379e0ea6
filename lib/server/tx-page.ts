import 'server-only';
import { notFound } from 'next/navigation';
import type { Chain } from '@/lib/chains';
import { badParameter } from '@/lib/errors';
import { transactionHashSchema, type TransactionDetail } from '@/lib/interface/transaction';
import { getReadableTransaction, getTokenFacts, type TokenFacts } from '@/lib/operations/transaction';
import type { ErrorInfo } from '@/lib/view/error-copy';
import { tokenMoves } from '@/lib/view/tx-page';
import type { ReadableTransaction } from '@/lib/view/tx-readable';
import type { ChainView, SavedLabels } from '@/lib/view/tx-view';
import { chainForView, toChainView, toErrorInfo } from './page';
import { savedLabels } from './saved-labels';
import { devnetLabels } from '@/lib/devnet/scenario-labels';

export interface TxPageData {
  tx: TransactionDetail;
  chain: ChainView;
  labels: SavedLabels;
  tokens: Map<string, TokenFacts>;
  /** The method, logs and internal calls named (lib/decode through the source), the same in both modes. */
  readable: ReadableTransaction;
  /** Contracts whose amounts are in token units (ERC-20s that moved or approved here): their decimals apply. */
  erc20: string[];
}

/**
 * What `/tx/{hash}?chain=` shows: the transaction operation's answer (node or hosted, verbose, with
 * internal calls), so both modes show the same page, or the error to show in its place.
 */
export async function loadTxPage(param: string, chainParam: string | null): Promise<TxPageData | { error: ErrorInfo }> {
  const chainResult = await chainForView(chainParam, 'history');
  const loaded = 'error' in chainResult ? { error: chainResult.error } : await load(param, chainResult.chain);
  // An unknown or malformed hash is a real 404 (app/tx/[hash]/not-found.tsx says which, and what to try); a
  // pending transaction is a 200 that says pending.
  if ('error' in loaded && (loaded.error.code === 'transaction_not_found' || (loaded.error.code === 'invalid_parameter' && loaded.error.parameter === 'hash'))) notFound();
  return loaded;
}

async function load(param: string, chain: Chain): Promise<TxPageData | { error: ErrorInfo }> {
  try {
    const parsed = transactionHashSchema.safeParse(param);
    if (!parsed.success) throw badParameter('hash', `hash: ${parsed.error.issues[0].message}`);
    const { tx, readable } = await getReadableTransaction(parsed.data, { chain: chain.name, include: 'internal_transactions' });
    // The devnets' public labels (alice, the pool: every party, call and transfer), the source's own labels
    // (hosted: entity names) over them, then the person's saved labels over those.
    const labels: SavedLabels = chain.devnet ? devnetLabels(chain.id) : {};
    if (tx.from_address_label) labels[tx.from_address.toLowerCase()] = tx.from_address_label;
    if (tx.to_address && tx.to_address_label) labels[tx.to_address.toLowerCase()] = tx.to_address_label;
    Object.assign(labels, await savedLabels());
    const moves = tokenMoves(tx);
    // An ERC-20 Approval (amount not indexed) says its emitter is a token too: its amounts read in its units.
    const approvals = readable.logs.filter((l) => l.event.signature === 'Approval(address,address,uint256)' && l.event.args?.[2]?.indexed === false).map((l) => l.address);
    const erc20 = [...new Set([...moves.filter((m) => m.kind === 'erc20').map((m) => m.token), ...approvals])];
    const wanted = [...moves.map((m) => ({ address: m.token, hint: m.kind })), ...approvals.map((address) => ({ address, hint: 'erc20' as const }))];
    // Where the source reads the chain itself (node mode); else the moves show token addresses.
    const tokens = await getTokenFacts(chain, wanted);
    return { tx, chain: toChainView(chain), labels, tokens, readable, erc20 };
  } catch (e) {
    return { error: await toErrorInfo(e) };
  }
}
