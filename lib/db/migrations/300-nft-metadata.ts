import type { Migration } from './index';

/**
 * Off-chain NFT metadata (issue 15): one row per token whose token URI points off chain, written by the
 * background fetcher (lib/sources/evm-node/metadata-fetch.ts). `status` is `ok` (the JSON is in
 * evm_nft_token.metadata), `failed` (with `reason`, `detail` and `retry_at`) or `fetching` (claimed
 * until `retry_at`, so two instances do not fetch the same token).
 */
export const nftMetadataMigration: Migration = {
  id: 300,
  name: 'nft off-chain metadata fetches',
  sql: `
CREATE TABLE IF NOT EXISTS evm_nft_metadata_fetch (
  chain_id integer NOT NULL, token_address text NOT NULL, token_id numeric(78,0) NOT NULL,
  url text NOT NULL, status text NOT NULL, reason text, detail text,
  attempts integer NOT NULL DEFAULT 0, fetched_at timestamptz, retry_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, token_address, token_id));
CREATE INDEX IF NOT EXISTS evm_nft_metadata_fetch_retry ON evm_nft_metadata_fetch (chain_id, retry_at);
`,
};
