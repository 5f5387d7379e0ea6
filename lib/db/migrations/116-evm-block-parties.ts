import type { Migration } from './index';

/**
 * A chain's transaction parties read from block bodies (sender, recipient, created contract), for nodes
 * that offer neither `ots_*` nor `trace_filter` (Geth): every block is read once per chain and its
 * parties kept here; how far the scan reached is in evm_chain_scan (kind 'parties'). Rebuildable from the node.
 */
export const evmBlockPartiesMigration: Migration = {
  id: 116,
  name: 'evm-node transaction parties from block bodies',
  sql: `
CREATE TABLE IF NOT EXISTS evm_tx_party (
  chain_id integer NOT NULL, address text NOT NULL, block_number bigint NOT NULL, tx_index integer NOT NULL,
  tx_hash text NOT NULL,
  PRIMARY KEY (chain_id, address, block_number, tx_index));
`,
};
