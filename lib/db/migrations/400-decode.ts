import type { Migration } from './index';

/**
 * Readable calls and events (issue 23): what the background fetchers learnt, so no request waits on a
 * network once it is known. `evm_verified_abi` keeps, per chain and address, the verified ABI a
 * Sourcify-compatible server (`SOURCIFY_URL`) holds; `evm_signature_lookup` keeps what an online
 * signature database (`SIGNATURE_LOOKUP_URL`) answered for a selector or topic (signatures are the same on
 * every chain). `status`: `ok` (found), `none` (the server has nothing), `failed` (with `reason`,
 * `detail`), `fetching` (claimed until `retry_at`, so instances do not ask twice); `retry_at` is when a
 * `none` or `failed` answer is asked again.
 */
export const decodeMigration: Migration = {
  id: 400,
  name: 'verified ABIs and looked-up signatures',
  sql: `
CREATE TABLE IF NOT EXISTS evm_verified_abi (
  chain_id integer NOT NULL, address text NOT NULL, status text NOT NULL,
  abi text, match text, reason text, detail text,
  attempts integer NOT NULL DEFAULT 0, fetched_at timestamptz, retry_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, address));
CREATE TABLE IF NOT EXISTS evm_signature_lookup (
  kind text NOT NULL, hash text NOT NULL, status text NOT NULL,
  signatures text, reason text, detail text,
  attempts integer NOT NULL DEFAULT 0, fetched_at timestamptz, retry_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, hash));
`,
};
