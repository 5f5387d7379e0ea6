// `npm run dev`'s switch for the devnet's live driver (devnet/evm/live-driver.mjs), so the home page's
// "Keep the devnet moving" button can start and stop it: a loopback HTTP server with a secret made for
// this run, handed to `next dev` alone as LANTERN_DEVNET_DRIVER (lib/config.ts ignores it in production
// and hosted mode). The app never imports devnet/: it asks this.
//   GET  {url}        -> { running, interval_s, sent }
//   POST {url}/start  -> the same, running
//   POST {url}/stop   -> the same, stopped (no transaction is sent after it answers)
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { startLiveDriver } from '../../devnet/evm/live-driver.mjs';

/**
 * @param {{ rpcUrl: string, manifest: Parameters<typeof startLiveDriver>[0]['manifest'], intervalS: number, running: boolean, log?: (line: string) => void }} o
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startDriverControl({ rpcUrl, manifest, intervalS, running, log = () => {} }) {
  const secret = randomBytes(16).toString('hex');
  let driver = null;
  let sent = 0; // across runs of the driver
  const start = () => (driver ??= startLiveDriver({ rpcUrl, manifest, intervalMs: intervalS * 1000, log }));
  const stop = async () => {
    const d = driver;
    driver = null;
    if (d) {
      await d.stop();
      sent += d.sent();
    }
  };
  const state = () => ({ running: driver !== null, interval_s: intervalS, sent: sent + (driver?.sent() ?? 0) });
  if (running) start();
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const answer = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (path === `/${secret}` && req.method === 'GET') return answer(200, state());
    if (path === `/${secret}/start` && req.method === 'POST') {
      start();
      log(`[devnet-live] started from the home page: a scenario transaction every ${intervalS} s`);
      return answer(200, state());
    }
    if (path === `/${secret}/stop` && req.method === 'POST') {
      await stop();
      log('[devnet-live] stopped from the home page');
      return answer(200, state());
    }
    answer(404, { error: 'not found' });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}/${secret}`,
    stop: async () => {
      await stop();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
