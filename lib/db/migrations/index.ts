import { evmNodeMigration } from './100-evm-node';
import { evmSelfdestructMigration } from './110-evm-selfdestruct';
import { evmChainMigration } from './120-evm-chain';
import { evmBlockPartiesMigration } from './116-evm-block-parties';
import { evmSpansMigration } from './130-evm-spans';
import { evmWalletLogsMigration } from './160-evm-wallet-logs';
import { authMigrations } from './200-auth';
import { nftMetadataMigration } from './300-nft-metadata';
import { nftMetadataOkAtMigration } from './310-nft-metadata-ok-at';
import { decodeMigration } from './400-decode';
import { liveMigration } from './410-live';

/**
 * Versioned schema changes, applied in id order on start-up (see lib/db). Never edit a migration that
 * has shipped: add a new one. Each feature keeps its migration in a file of its own in this folder.
 */
export interface Migration {
  id: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [evmNodeMigration, evmSelfdestructMigration, evmBlockPartiesMigration, evmChainMigration, evmSpansMigration, evmWalletLogsMigration, ...authMigrations, nftMetadataMigration, nftMetadataOkAtMigration, decodeMigration, liveMigration].sort((a, b) => a.id - b.id);
