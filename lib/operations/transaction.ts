import 'server-only';
import type { Chain } from '@/lib/chains';
import { cached } from '@/lib/cache';
import type { TransactionDetail, TransactionQuery } from '@/lib/interface/transaction';
import { sources, type TokenFacts } from '@/lib/sources';
import { requestChain } from './chains';
import { decodeCall, signatureTable } from '@/lib/decode';
import { decodeParts, readableName, readableTransaction, type ReadableTransaction } from '@/lib/view/tx-readable';

/**
 * One transaction by hash, plain or verbose. Caching: a transaction in a final block never changes, so
 * node mode keeps it a day; one within the reorg depth of the head 5 s; hosted answers 60 s. Errors
 * (unknown, pending) are never cached: a pending transaction is mined moments later. Node keys hold the
 * chain's epoch: a reorg past the final depth, a rollback or a restarted devnet starts a new one.
 */
const FINAL_TTL_S = 24 * 60 * 60;
const RECENT_TTL_S = 5;
const HOSTED_TTL_S = 60;

export async function getTransaction(hash: string, query: TransactionQuery, verbose: boolean): Promise<TransactionDetail> {
  const opts = { verbose, internal: query.include === 'internal_transactions' };
  const chain = await requestChain(query.chain, 'history');
  const s = sources().evm(chain);
  const mark = await s.chain.mark();
  const key = `tx:${s.kind}:${chain.hex}:${mark ? `${mark.epoch}:` : ''}${hash}:${verbose ? 'v' : 'p'}:${opts.internal ? 'i' : '-'}`;
  const ttl = (v: { final: boolean | null }) => (v.final === null ? HOSTED_TTL_S : v.final ? FINAL_TTL_S : RECENT_TTL_S);
  const out = await cached(key, { ttl }, () => s.transaction.transaction(hash, chain, opts));
  return out.tx;
}

export type { TokenFacts };

/**
 * One transaction with what it means: the verbose answer (with internal calls) and its readable form
 * (lib/view/tx-readable.ts: the method with named arguments, every log as `Event(name: value)`, every
 * internal call's method), named by the source with everything it knows (node mode: contracts, proxies,
 * devnet and verified ABIs, the signature table, looked-up signatures; hosted: the table). The
 * decoding is not cached here: node mode keeps what it read (contracts, ABIs) and decodes in memory.
 */
export async function getReadableTransaction(hash: string, query: TransactionQuery): Promise<{ tx: TransactionDetail; readable: ReadableTransaction }> {
  const tx = await getTransaction(hash, { ...query, include: 'internal_transactions' }, true);
  const chain = await requestChain(query.chain, 'history');
  const decoding = await sources().evm(chain).transaction.decode(chain, decodeParts(tx));
  return { tx, readable: readableTransaction(tx, decoding) };
}

/**
 * Names, symbols and decimals of the tokens a transaction moved, where the source reads the chain itself
 * (node mode); an empty map otherwise or when the lookup fails: the page then shows addresses.
 */
export async function getTokenFacts(chain: Chain, wanted: { address: string; hint: 'erc20' | 'erc721' | 'erc1155' }[]): Promise<Map<string, TokenFacts>> {
  const source = sources().evm(chain).tokenFacts;
  if (!source || wanted.length === 0) return new Map();
  return source.tokenFacts(chain.id, wanted).catch(() => new Map<string, TokenFacts>());
}

/**
 * A method's name from a call's input with the shipped signature table alone (no node, no network), for
 * rows whose source gave no label (the CSV export): the name, `one of N: a, b` when several fit exactly,
 * or null.
 */
export async function methodFromInput(input: string | null | undefined): Promise<string | null> {
  if (!input || input.length < 10) return null;
  const d = decodeCall(input, { exact: [], table: await signatureTable(), lookup: [] });
  return d.kind === 'unknown' ? null : readableName(d).text;
}
