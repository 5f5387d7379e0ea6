import type { Migration } from './index';

/**
 * Lantern's own EVM indexing (lib/sources/evm-node). Everything here can be rebuilt from the node, so
 * the tables are caches with progress markers, keyed by chain so one database can follow a changed node.
 * Big integers (token ids, amounts) are numeric(78,0): uint256 fits, and ordering is numeric.
 */
export const evmNodeMigration: Migration = {
  id: 100,
  name: 'evm-node indexing',
  sql: `
CREATE TABLE IF NOT EXISTS evm_block (
  chain_id integer NOT NULL, number bigint NOT NULL, timestamp bigint NOT NULL,
  PRIMARY KEY (chain_id, number));

-- History: how far each wallet's activity index reaches, and the index itself.
CREATE TABLE IF NOT EXISTS evm_wallet_index (
  chain_id integer NOT NULL, address text NOT NULL, indexed_to bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, address));
CREATE TABLE IF NOT EXISTS evm_wallet_activity (
  chain_id integer NOT NULL, address text NOT NULL, block_number bigint NOT NULL, tx_index integer NOT NULL,
  tx_hash text NOT NULL,
  PRIMARY KEY (chain_id, address, block_number, tx_index));

-- Wallet-independent facts of one final transaction (JSON), hydrated once.
CREATE TABLE IF NOT EXISTS evm_tx (
  chain_id integer NOT NULL, hash text NOT NULL, block_number bigint NOT NULL, facts text NOT NULL,
  PRIMARY KEY (chain_id, hash));

-- Token and NFT-contract facts read once with eth_call.
CREATE TABLE IF NOT EXISTS evm_token (
  chain_id integer NOT NULL, address text NOT NULL, kind text NOT NULL,
  name text, symbol text, decimals integer, possible_spam boolean NOT NULL DEFAULT false,
  checked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, address));

-- NFTs: one indexing job per (chain, owner); status running | synced.
CREATE TABLE IF NOT EXISTS evm_nft_sync (
  chain_id integer NOT NULL, owner text NOT NULL, status text NOT NULL, synced_to bigint NOT NULL DEFAULT 0,
  jobs_started integer NOT NULL DEFAULT 0, heartbeat_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, owner));
CREATE TABLE IF NOT EXISTS evm_nft_balance (
  chain_id integer NOT NULL, owner text NOT NULL, token_address text NOT NULL, token_id numeric(78,0) NOT NULL,
  contract_type text NOT NULL, amount numeric(78,0) NOT NULL, block_number bigint NOT NULL,
  block_number_minted bigint,
  PRIMARY KEY (chain_id, owner, token_address, token_id));
CREATE TABLE IF NOT EXISTS evm_nft_token (
  chain_id integer NOT NULL, token_address text NOT NULL, token_id numeric(78,0) NOT NULL,
  token_uri text, metadata text, synced_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, token_address, token_id));
`,
};
