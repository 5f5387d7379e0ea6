import 'server-only';
import type { Chain } from '@/lib/chains';
import { db } from '@/lib/db';
import { notFound } from '@/lib/errors';
import { resyncWaits, type NftResyncAnswer, type NftResyncQuery } from '@/lib/interface/nft-resync';
import { decodeDataUri, readUri } from './metadata';
import { fetchTokenMetadata, type FetchOutcome } from './metadata-fetch';

/**
 * Resync of one token in node mode: `flag=uri` reads the token URI from the chain again (and then its
 * metadata), `flag=metadata` fetches the metadata again from the URI already known. `mode=sync` waits
 * for it (bounded: one eth_call, one fetch with its per-hop timeout and at most 3 redirects), `mode=async`
 * answers at once and does it in the background. One resync per token at a time per instance.
 */

const running = new Map<string, Promise<NftResyncAnswer>>();
const SYNC_BOUND_MS = 30_000;

export async function nodeResyncNft(chain: Chain, contract: string, tokenId: string, q: NftResyncQuery): Promise<{ httpStatus: 200 | 202; answer: NftResyncAnswer }> {
  const key = `${chain.id}:${contract}:${tokenId}:${q.flag}`;
  let job = running.get(key);
  if (!job) {
    job = resync(chain.id, contract, tokenId, q.flag).finally(() => running.delete(key));
    running.set(key, job);
  }
  if (!resyncWaits(q)) {
    job.catch(() => undefined);
    return { httpStatus: 202, answer: { status: `Resync of the token's ${q.flag === 'uri' ? 'URI and metadata' : 'metadata'} was started` } };
  }
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<null>((r) => (timer = setTimeout(() => r(null), SYNC_BOUND_MS)));
  const answer = await Promise.race([job, bound]).finally(() => clearTimeout(timer));
  if (answer === null) return { httpStatus: 202, answer: { status: 'Resync is taking longer than expected and continues in the background' } };
  return { httpStatus: 200, answer };
}

async function resync(chainId: number, contract: string, tokenId: string, flag: 'uri' | 'metadata'): Promise<NftResyncAnswer> {
  const d = await db();
  const known = await d.query<{ token_uri: string | null }>(
    'SELECT token_uri FROM evm_nft_token WHERE chain_id = $1 AND token_address = $2 AND token_id = $3::numeric',
    [chainId, contract, tokenId],
  );
  let uri = known.rows[0]?.token_uri ?? null;
  if (flag === 'uri' || known.rows.length === 0) {
    const { rows } = await d.query<{ contract_type: string }>('SELECT contract_type FROM evm_nft_balance WHERE chain_id = $1 AND token_address = $2 LIMIT 1', [
      chainId,
      contract,
    ]);
    const type = rows[0]?.contract_type;
    uri =
      type === 'ERC721'
        ? await readUri(chainId, contract, tokenId, 'erc721')
        : type === 'ERC1155'
          ? await readUri(chainId, contract, tokenId, 'erc1155')
          : ((await readUri(chainId, contract, tokenId, 'erc721')) ?? (await readUri(chainId, contract, tokenId, 'erc1155')));
    if (uri === null && known.rows.length === 0) throw notFound(`No token URI for token ${tokenId} of ${contract}: the contract answers neither tokenURI nor uri for it.`);
    const onChain = decodeDataUri(uri);
    // A changed URI drops the old metadata; an unchanged remote one keeps it until the fetch below replaces it.
    await d.query(
      `INSERT INTO evm_nft_token (chain_id, token_address, token_id, token_uri, metadata) VALUES ($1, $2, $3::numeric, $4, $5)
       ON CONFLICT (chain_id, token_address, token_id) DO UPDATE SET token_uri = EXCLUDED.token_uri, synced_at = now(),
         metadata = CASE WHEN EXCLUDED.metadata IS NOT NULL OR evm_nft_token.token_uri IS DISTINCT FROM EXCLUDED.token_uri THEN EXCLUDED.metadata ELSE evm_nft_token.metadata END`,
      [chainId, contract, tokenId, uri, onChain],
    );
  }
  if (!uri) return { status: 'The token has no token URI' };
  const outcome: FetchOutcome = await fetchTokenMetadata(chainId, contract, tokenId, uri, true);
  switch (outcome.status) {
    case 'onchain':
      return { status: 'The metadata is on chain and was read again' };
    case 'ok':
      return { status: 'The metadata was fetched' };
    case 'failed':
      return { status: `The metadata could not be fetched (${outcome.reason}): ${outcome.detail ?? ''}`.trim(), reason: outcome.reason };
    default:
      return { status: 'Another instance is fetching this token now' };
  }
}
