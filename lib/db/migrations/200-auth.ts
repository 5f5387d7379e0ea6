import type { Migration } from './index';

/**
 * Sign-in (issue 5). Challenges live in the database, not in process memory, so a challenge issued by
 * one instance verifies on another exactly once (`used_at` is set by one atomic UPDATE).
 * Saved wallets are keyed by profile id, which is derived from the address (see lib/sources/siwe-local/profile-id.ts).
 */
export const authMigrations: Migration[] = [
  {
    id: 200,
    name: 'auth_challenges',
    sql: `
      CREATE TABLE IF NOT EXISTS auth_challenges (
        id uuid PRIMARY KEY,
        nonce text NOT NULL UNIQUE,
        message text NOT NULL,
        address text NOT NULL,
        chain_id bigint NOT NULL,
        domain text NOT NULL,
        uri text NOT NULL,
        profile_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE INDEX IF NOT EXISTS auth_challenges_expires_at ON auth_challenges (expires_at);`,
  },
  {
    id: 201,
    name: 'saved_wallets',
    sql: `
      CREATE TABLE IF NOT EXISTS saved_wallets (
        profile_id text NOT NULL,
        address text NOT NULL,
        label text NOT NULL CHECK (char_length(label) BETWEEN 1 AND 64),
        note text NOT NULL DEFAULT '' CHECK (char_length(note) <= 500),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (profile_id, address)
      );`,
  },
  {
    id: 202,
    name: 'sessions',
    // Issue 10: a session is a row, so sign-out (here or on any device, on any instance) ends it for
    // every copy of its cookie. The cookie holds a random token; only its SHA-256 is stored.
    sql: `
      CREATE TABLE IF NOT EXISTS sessions (
        token_hash text PRIMARY KEY,
        profile_id text NOT NULL,
        address text NOT NULL,
        chain_id bigint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
      CREATE INDEX IF NOT EXISTS sessions_profile ON sessions (profile_id);
      CREATE INDEX IF NOT EXISTS sessions_expires_at ON sessions (expires_at);`,
  },
];
