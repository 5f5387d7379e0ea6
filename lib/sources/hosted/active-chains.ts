import 'server-only';
import type { Chain } from '@/lib/chains';
import { LanternError } from '@/lib/errors';
import { activeChainsSchema, type ActiveChain } from '@/lib/interface/active-chains';
import { hostedRequest } from './client';

/**
 * The hosted API's active-chains operation, forwarded: one request for every chain the hosted API
 * answers here (`chains[0]=0x1&chains[1]=0x89`). Its answer is matched back to the chains asked, in
 * their order; a chain it leaves out is one where the wallet has no transaction.
 */
export async function hostedActiveChains(address: string, chains: Chain[]): Promise<ActiveChain[]> {
  const answer = await hostedRequest({
    service: 'data',
    path: `/api/v2.2/wallets/${encodeURIComponent(address)}/chains`,
    query: { chains: chains.map((c) => c.hex) },
    schema: activeChainsSchema,
  });
  const idOf = (c: ActiveChain) => {
    const id = /^0x[0-9a-f]+$/i.test(c.chain_id) ? Number.parseInt(c.chain_id.slice(2), 16) : Number(c.chain_id);
    if (!Number.isSafeInteger(id)) throw new LanternError(502, 'upstream_bad_response', `The data provider answered the active chains with an unreadable chain_id.`);
    return id;
  };
  const byId = new Map(answer.active_chains.map((c) => [idOf(c), c]));
  return chains.map((chain) => {
    const got = byId.get(chain.id);
    return { chain: chain.name, chain_id: chain.hex, first_transaction: got?.first_transaction ?? null, last_transaction: got?.last_transaction ?? null };
  });
}
