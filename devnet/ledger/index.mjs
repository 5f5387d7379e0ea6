import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { createChain } from './chain.mjs';

/**
 * The local ledger devnet: a plain Node HTTP server that answers the subset of a ledger fullnode's REST
 * API Lantern reads (`/v1`, `/v1/blocks/by_version/{v}`, `/v1/blocks/by_height/{h}`), with the
 * fullnode's error bodies (AptosError `{message, error_code, vm_error_code}`) and `X-Aptos-*` headers,
 * over the generated chain in ./chain.mjs.
 *
 * `startLedgerDevnet({port, host})` -> `{url, stop(), requestCount(), requests(), setFault(), chain}`.
 * `url` ends in `/v1`, as LEDGER_API_URL_LOCAL expects. `setFault('hang' | 'error500' | 'reset' | null)`
 * lets tests see a node that hangs, fails or drops connections.
 * Run directly: `node devnet/ledger/index.mjs` (DEVNET_LEDGER_PORT, default 8080).
 */

const MAX_CACHED_BYTES = 48 * 1024 * 1024; // recently served bodies; the 10,000-transaction block is ~22 MB

export async function startLedgerDevnet({ port = 8080, host = '127.0.0.1' } = {}) {
  const chain = createChain();
  const cache = new Map(); // key -> body, in use order
  let cachedBytes = 0;
  let count = 0;
  const log = [];
  let fault = null;

  function cachedBody(key, make) {
    const hit = cache.get(key);
    if (hit !== undefined) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const body = JSON.stringify(make());
    cache.set(key, body);
    cachedBytes += body.length;
    for (const [k, v] of cache) {
      if (cachedBytes <= MAX_CACHED_BYTES || k === key) break;
      cache.delete(k);
      cachedBytes -= v.length;
    }
    return body;
  }

  const server = createServer((req, res) => {
    count++;
    log.push(req.url);
    if (log.length > 1000) log.shift();
    if (fault === 'hang') return; // never answers; the client's timeout must fire
    if (fault === 'reset') return req.socket.destroy();
    if (fault === 'error500') return send(res, 500, error('Internal error (injected fault)', 'internal_error'));
    try {
      route(req, res);
    } catch (e) {
      send(res, 500, error(`devnet failure: ${e instanceof Error ? e.message : e}`, 'internal_error'));
    }
  });

  function route(req, res) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, error('Method not allowed', 'web_framework_error'));
    const u = new URL(req.url ?? '/', 'http://devnet');
    const p = u.pathname.replace(/\/+$/, '');
    if (p === '/v1' || p === '/v1/-/healthy') return send(res, 200, JSON.stringify(p === '/v1' ? chain.info() : { message: 'aptos-node:ok' }));

    const m = p.match(/^\/v1\/blocks\/by_(version|height)\/([^/]*)$/);
    if (!m) return send(res, 404, error(`Not found: ${u.pathname}`, 'web_framework_error'));
    const [, kind, raw] = m;

    const wt = u.searchParams.get('with_transactions');
    if (wt !== null && wt !== 'true' && wt !== 'false') {
      return send(res, 400, error(`failed to parse query string \`with_transactions\`: invalid boolean: ${wt}`, 'web_framework_error'));
    }
    const withTransactions = wt === 'true';
    if (!/^\d{1,20}$/.test(raw) || BigInt(raw) > 18446744073709551615n) {
      return send(res, 400, error(`failed to parse path \`${kind}\`: failed to parse "u64": invalid digit found in string`, 'web_framework_error'));
    }
    const n = BigInt(raw);
    const info = chain.info();

    let height;
    if (kind === 'version') {
      if (n > BigInt(chain.headVersion)) {
        return send(res, 404, error(`Ledger version not found by Ledger version(${raw}): it is beyond the ledger version ${chain.headVersion}`, 'version_not_found'));
      }
      if (n < BigInt(chain.oldestVersion)) {
        return send(res, 410, error(`Ledger version(${raw}) has been pruned`, 'version_pruned'));
      }
      height = chain.heightOf(Number(n));
    } else {
      if (n > BigInt(chain.headHeight)) return send(res, 404, error(`Block not found by Height(${raw})`, 'block_not_found'));
      height = Number(n);
      if (height < Number(info.oldest_block_height)) return send(res, 410, error(`Block(${height}) has been pruned`, 'block_pruned'));
    }
    const body = cachedBody(`${height}/${withTransactions}`, () => chain.block(height, withTransactions));
    send(res, 200, body);
  }

  function send(res, status, body) {
    const info = chain.info();
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'x-aptos-chain-id': String(info.chain_id),
      'x-aptos-ledger-version': info.ledger_version,
      'x-aptos-ledger-oldest-version': info.oldest_ledger_version,
      'x-aptos-ledger-timestampusec': info.ledger_timestamp,
      'x-aptos-epoch': info.epoch,
      'x-aptos-block-height': info.block_height,
      'x-aptos-oldest-block-height': info.oldest_block_height,
    });
    res.end(body);
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = server.address().port;

  return {
    url: `http://${host}:${actualPort}/v1`,
    port: actualPort,
    chain,
    /** Requests received so far (every path, including errors). */
    requestCount: () => count,
    /** The last 1,000 request paths with their query strings. */
    requests: () => [...log],
    setFault: (f) => {
      fault = f;
    },
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function error(message, code) {
  return JSON.stringify({ message, error_code: code, vm_error_code: null });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.DEVNET_LEDGER_PORT || 8080);
  const devnet = await startLedgerDevnet({ port });
  const { chain } = devnet;
  console.log(
    `ledger devnet on ${devnet.url}: blocks ${chain.info().oldest_block_height}..${chain.headHeight} served ` +
      `(versions ${chain.oldestVersion}..${chain.headVersion}); 2,000-transaction block holds version ${chain.firstVersionOf(4200)}`,
  );
  const stop = () => devnet.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
