import type { Migration } from './index';

/**
 * The chain's SELFDESTRUCT beneficiaries, for nodes that offer `ots_*` but not `trace_filter` (ots_ does
 * not report beneficiaries): every block is traced once per chain and its SELFDESTRUCT frames kept here,
 * with how far the scan reached. Rebuildable from the node like every evm_* table.
 */
export const evmSelfdestructMigration: Migration = {
  id: 110,
  name: 'evm-node selfdestruct beneficiaries',
  sql: `
CREATE TABLE IF NOT EXISTS evm_selfdestruct (
  chain_id integer NOT NULL, beneficiary text NOT NULL, block_number bigint NOT NULL, tx_index integer NOT NULL,
  tx_hash text NOT NULL,
  PRIMARY KEY (chain_id, beneficiary, block_number, tx_index));
CREATE TABLE IF NOT EXISTS evm_chain_scan (
  chain_id integer NOT NULL, kind text NOT NULL, scanned_to bigint NOT NULL,
  PRIMARY KEY (chain_id, kind));
`,
};
