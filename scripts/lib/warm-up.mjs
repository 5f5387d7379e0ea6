// Start-up warm-up: before a server takes its first real request, it answers a few of its own through a
// private loopback listener, so every route's code is loaded (and, in development, compiled) and the
// first person after a deploy or `npm run dev` does not wait for it. The paths touch no source: invalid
// inputs make each page and operation load, validate and answer 400/404 without reading a chain.
import { createServer } from 'node:http';
import { WARM_UP_FLAG } from '../../lib/warm-up-flag.mjs';

export { WARM_UP_FLAG };

export const WARM_UP_PATHS = [
  // Pages, and what every page kind loads on its error path.
  '/',
  '/search?q=',
  '/wallet/warm-up',
  '/wallet/warm-up/nfts',
  '/wallet/warm-up/history.csv',
  '/tx/warm-up',
  '/ledger/local/versions/warm-up',
  '/no-such-page',
  // Link-preview images: the image renderer and its font load once, on the first of them.
  '/wallet/warm-up/opengraph-image',
  '/wallet/warm-up/twitter-image',
  '/ledger/local/versions/warm-up/opengraph-image',
  '/ledger/local/versions/warm-up/twitter-image',
  // The published API: history, NFTs, balance, tokens, approvals, stats, transactions, NFT resync, ledger blocks, sign-in.
  '/api/health',
  '/api/v2.2/wallets/warm-up/history',
  '/api/v2.2/wallets/warm-up/chains',
  '/api/v2.2/warm-up/nft',
  '/api/v2.2/warm-up/balance',
  '/api/v2.2/warm-up/erc20',
  '/api/v2.2/wallets/warm-up/tokens',
  '/api/v2.2/wallets/warm-up/approvals',
  '/api/v2.2/wallets/warm-up/stats',
  '/api/v2.2/transaction/warm-up',
  '/api/v2.2/transaction/warm-up/verbose',
  '/api/v2.2/nft/warm-up/warm-up/metadata/resync',
  '/api/ledger/local/blocks/by_version/warm-up',
  // Sign-in routes take POST only: a GET loads them and answers 405.
  '/api/auth/challenge/request/evm',
  '/api/auth/challenge/verify/evm',
];

const PER_REQUEST_MS = 60_000;

/**
 * Requests carrying the development warm-up's flag (lib/warm-up-flag.mjs), which `next dev` leaves out of
 * its request log (next.config.mjs, logging.incomingRequests.ignore): their 400s, 404s and 405s are by
 * design (bad input on purpose) and read like failures to someone watching the terminal. scripts/dev.mjs
 * prints one summary line instead.
 */
export const WARM_UP_LOG_IGNORE = new RegExp(`[?&]${WARM_UP_FLAG}(?:[=&]|$)`);

/** `path` with the warm-up flag added to its query. */
export function flagged(path) {
  return `${path}${path.includes('?') ? '&' : '?'}${WARM_UP_FLAG}`;
}

/** Requests each path from `origin` in turn; returns how long it took. Failures are reported, never thrown. */
export async function warmPaths(origin, paths = WARM_UP_PATHS, log = () => undefined) {
  const started = Date.now();
  for (const p of paths) {
    try {
      // A rate-limit bucket of its own: the warm-up must not spend a real client's allowance.
      const res = await fetch(origin + p, { headers: { 'x-forwarded-for': 'lantern-warm-up' }, signal: AbortSignal.timeout(PER_REQUEST_MS), redirect: 'manual' });
      await res.arrayBuffer();
    } catch (e) {
      log(`warm-up: ${p} failed (${e.name === 'TimeoutError' ? 'timed out' : e.message})`);
    }
  }
  return Date.now() - started;
}

/**
 * Production: serve the warm-up through Next's handler on a private port, before the public listener
 * opens. The first request also runs start-up (instrumentation.ts: the configuration, the EVM nodes'
 * chain check), which Next's production server otherwise starts only when its first request comes.
 */
export async function warmUp(handle, log = () => undefined, paths = WARM_UP_PATHS) {
  const server = createServer((req, res) => handle(req, res));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await warmPaths(`http://127.0.0.1:${server.address().port}`, paths, log);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
