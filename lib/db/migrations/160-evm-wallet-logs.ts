import type { Migration } from './index';

/**
 * What a wallet holds and who may spend it (issue 21): the logs that name a wallet, one row per log,
 * read from the node by lib/sources/evm-node/wallet-logs.ts. `kind` is `erc20` (an ERC-20 Transfer it
 * sent or received), `nft` (an ERC-721 Transfer or ERC-1155 TransferSingle/Batch; `items` counts the
 * ids), `approval` (an ERC-20 Approval it gave; `other` the spender, `value` the amount) or `operator` (an
 * ApprovalForAll it gave; `other` the operator, `value` 1 or 0). Which blocks are read is kept as spans
 * (evm_span, scope `logs:<address>`). Rebuildable from the node like every evm_* table.
 */
export const evmWalletLogsMigration: Migration = {
  id: 160,
  name: 'evm-node wallet logs (token candidates, approvals, transfer counts)',
  sql: `
CREATE TABLE IF NOT EXISTS evm_wallet_log (
  chain_id integer NOT NULL, address text NOT NULL, block_number bigint NOT NULL, log_index integer NOT NULL,
  tx_hash text NOT NULL, token text NOT NULL, kind text NOT NULL, other text, value numeric(78,0),
  items integer NOT NULL DEFAULT 1,
  PRIMARY KEY (chain_id, address, block_number, log_index));
CREATE INDEX IF NOT EXISTS evm_wallet_log_kind ON evm_wallet_log (chain_id, address, kind, token);
`,
};
