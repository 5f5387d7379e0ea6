import type { Migration } from './index';

/**
 * Which chain the evm_* tables describe (lib/sources/evm-node/chain.ts): the node's genesis hash, an epoch
 * that grows each time Lantern finds the node on another chain or fork than the one it indexed (cache keys
 * carry it, so every instance stops serving pages of the old chain), and checkpoints: hashes of heads
 * Lantern saw, dense near the head and one per 4096-block bucket below, to find where a fork began.
 */
export const evmChainMigration: Migration = {
  id: 120,
  name: 'evm-node chain identity',
  sql: `
CREATE TABLE IF NOT EXISTS evm_chain_state (
  chain_id integer PRIMARY KEY, genesis_hash text NOT NULL, epoch integer NOT NULL DEFAULT 1,
  last_fork bigint, changed_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS evm_chain_checkpoint (
  chain_id integer NOT NULL, number bigint NOT NULL, hash text NOT NULL, seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, number));
`,
};
