import type { Migration } from './index';

/**
 * When a token's off-chain metadata was last fetched successfully (issue 15). `fetched_at` is the last
 * attempt, failed or not; a failed resync keeps the metadata it had, so `last_metadata_sync` must keep
 * the time that metadata was fetched: `ok_at`.
 */
export const nftMetadataOkAtMigration: Migration = {
  id: 310,
  name: 'nft metadata: time of the last successful fetch',
  sql: `
ALTER TABLE evm_nft_metadata_fetch ADD COLUMN IF NOT EXISTS ok_at timestamptz;
UPDATE evm_nft_metadata_fetch SET ok_at = fetched_at WHERE status = 'ok' AND ok_at IS NULL;
`,
};
