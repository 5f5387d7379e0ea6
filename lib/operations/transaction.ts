import 'server-only';
import { resolveChain } from '@/lib/chains';
import { cached } from '@/lib/cache';
import { config } from '@/lib/config';
import type { TransactionDetail, TransactionQuery } from '@/lib/interface/transaction';
import { nodeRequestChain } from '@/lib/sources/evm-node';
import { chainMark } from '@/lib/sources/evm-node/chain';
import { nodeTransaction } from '@/lib/sources/evm-node/transaction';
import { hostedTransaction } from '@/lib/sources/hosted/transaction';

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
  const c = config();
  const opts = { verbose, internal: query.include === 'internal_transactions' };
  const key = (chainHex: string) => `tx:${c.mode}:${chainHex}:${hash}:${verbose ? 'v' : 'p'}:${opts.internal ? 'i' : '-'}`;
  if (c.mode === 'hosted') {
    const chain = resolveChain(query.chain ?? c.defaultChain, 'history', { devnet: c.acceptDevnet });
    return cached(key(chain.hex), { ttl: HOSTED_TTL_S }, () => hostedTransaction(hash, chain, opts));
  }
  const chain = await nodeRequestChain(query.chain, 'history');
  const out = await cached(`${key(chain.hex)}:${(await chainMark()).epoch}`, { ttl: (v: { final: boolean }) => (v.final ? FINAL_TTL_S : RECENT_TTL_S) }, () => nodeTransaction(hash, chain, opts));
  return out.tx;
}
