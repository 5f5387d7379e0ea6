import 'server-only';
import { cached } from '@/lib/cache';
import type { Chain } from '@/lib/chains';
import { serializeActiveChains, type ActiveChain, type ActiveChainsQuery } from '@/lib/interface/active-chains';
import { sources, type ActiveChainsSource } from '@/lib/sources';
import { requestChain } from './chains';

/**
 * Where a wallet is active: its first and last transaction on each chain asked (`chains`, else the
 * default chain), each chain answered by its own source (its node, else the hosted API, which gets one
 * request for all of its chains). Node answers are kept under the chain's epoch and head (a new block is
 * a new key); hosted ones HOSTED_TTL_S.
 */
const NODE_TTL_S = 60;
const HOSTED_TTL_S = 10;

export async function getActiveChains(address: string, query: ActiveChainsQuery) {
  const wallet = address.toLowerCase();
  const asked = await Promise.all((query.chains.length > 0 ? query.chains : [undefined]).map((v) => requestChain(v, 'history')));
  const chains = asked.filter((c, i) => asked.findIndex((x) => x.id === c.id) === i);
  // Grouped by the source that answers: one group per node, one for the hosted API.
  const groups = new Map<ActiveChainsSource, Chain[]>();
  for (const c of chains) {
    const source = sources().evm(c).activeChains;
    groups.set(source, [...(groups.get(source) ?? []), c]);
  }
  const answers = new Map<number, ActiveChain>();
  await Promise.all(
    [...groups].map(async ([source, group]) => {
      const s = sources().evm(group[0]);
      const marks = await Promise.all(group.map((c) => sources().evm(c).chain.mark()));
      const key = `active:${s.kind}:${group.map((c, i) => `${c.hex}${marks[i] ? `@${marks[i]!.head}` : ''}`).join(',')}:${wallet}`;
      const got = await cached(key, { ttl: marks[0] ? NODE_TTL_S : HOSTED_TTL_S }, () => source.activeChains(address, group));
      group.forEach((c, i) => answers.set(c.id, got[i]!));
    }),
  );
  return serializeActiveChains({ address: wallet, active_chains: chains.map((c) => answers.get(c.id)!) });
}
