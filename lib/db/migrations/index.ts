import { evmNodeMigration } from './100-evm-node';
import { authMigrations } from './200-auth';

/**
 * Versioned schema changes, applied in id order on start-up (see lib/db). Never edit a migration that
 * has shipped: add a new one. Each feature keeps its migration in a file of its own in this folder.
 */
export interface Migration {
  id: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [evmNodeMigration, ...authMigrations].sort((a, b) => a.id - b.id);
