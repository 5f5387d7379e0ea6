import type { Migration } from './index';

/**
 * Live wallet pages (lib/live, lib/sources/evm-node/chain.ts):
 * - evm_chain_fork: the block each epoch of a chain began after (-1: another genesis), so a stream that
 *   resumes from an older epoch knows which rows may be gone;
 * - evm_reorg_removed: the wallets' activity rows a fork dropped, so that stream can name them (not
 *   kept for a fork that dropped more than 10,000 rows: removed_logged is false, and such a stream starts over);
 * - live_lease: which instance follows each chain's heads (0: the hosted poller), until when;
 * - live_watch: the wallets each instance has a stream open for, until when (renewed while open).
 * Fork and removal rows are kept a day.
 */
export const liveMigration: Migration = {
  id: 410,
  name: 'live pages: forks, removed rows, leases, watched wallets',
  sql: `
CREATE TABLE IF NOT EXISTS evm_chain_fork (
  chain_id integer NOT NULL, epoch integer NOT NULL, fork_block bigint NOT NULL, removed_logged boolean NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, epoch));
CREATE TABLE IF NOT EXISTS evm_reorg_removed (
  chain_id integer NOT NULL, epoch integer NOT NULL, address text NOT NULL, tx_hash text NOT NULL,
  block_number bigint NOT NULL, tx_index integer NOT NULL, at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, address, epoch, tx_hash));
CREATE TABLE IF NOT EXISTS live_lease (
  chain_id integer PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL);
CREATE TABLE IF NOT EXISTS live_watch (
  chain_id integer NOT NULL, address text NOT NULL, instance text NOT NULL, since timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL, PRIMARY KEY (chain_id, address, instance));
CREATE INDEX IF NOT EXISTS live_watch_chain ON live_watch (chain_id, expires_at);
`,
};
