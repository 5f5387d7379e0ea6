import type { Migration } from './index';

/**
 * Indexing in windows (lib/sources/evm-node/spans.ts). What has been read from the node is no longer one
 * prefix per wallet (`indexed_to`) or per chain scan (`scanned_to`) but a set of block spans per scope:
 * a wallet's address (its activity rows), or `chain:selfdestruct` / `chain:parties` (the chain-wide scans
 * of nodes without trace_filter, or without ots_ and trace_filter). A span [lo, hi] means every row of
 * that scope in blocks lo..hi is in its table and final; hi = lo - 1 is a span that holds no final block
 * yet. The newest window of a wallet is read first, older ones after it (evm_wallet_fill: one background
 * job per wallet across instances, claimed with its row). The old progress markers become spans.
 */
export const evmSpansMigration: Migration = {
  id: 130,
  name: 'evm-node indexing in windows',
  sql: `
CREATE TABLE IF NOT EXISTS evm_span (
  chain_id integer NOT NULL, scope text NOT NULL, lo bigint NOT NULL, hi bigint NOT NULL,
  PRIMARY KEY (chain_id, scope, lo),
  CHECK (lo >= 1 AND hi >= lo - 1));
INSERT INTO evm_span (chain_id, scope, lo, hi)
  SELECT chain_id, address, 1, indexed_to FROM evm_wallet_index WHERE indexed_to >= 1 ON CONFLICT DO NOTHING;
INSERT INTO evm_span (chain_id, scope, lo, hi)
  SELECT chain_id, 'chain:' || kind, 1, scanned_to FROM evm_chain_scan WHERE scanned_to >= 1 ON CONFLICT DO NOTHING;
DROP TABLE IF EXISTS evm_wallet_index;
DROP TABLE IF EXISTS evm_chain_scan;
CREATE TABLE IF NOT EXISTS evm_wallet_fill (
  chain_id integer NOT NULL, address text NOT NULL, status text NOT NULL,
  jobs_started integer NOT NULL DEFAULT 1, windows integer NOT NULL DEFAULT 0,
  started_at timestamptz NOT NULL DEFAULT now(), heartbeat_at timestamptz NOT NULL DEFAULT now(), finished_at timestamptz,
  PRIMARY KEY (chain_id, address));
`,
};
