// A tiny IPFS "gateway" for the devnet's Far Lanterns (devnet/evm/scenario.mjs): serves
// /ipfs/<FAR_LANTERNS_CID>/<n>.json (metadata) and /ipfs/<FAR_LANTERNS_CID>/<n>.svg (the image) on
// loopback, so `npm run dev` shows NFT metadata that lives off chain. Anything else is a 404.
import http from 'node:http';
import { FAR_LANTERNS_CID } from './scenario.mjs';

const COLORS = ['#f5c451', '#7fd1b9', '#c38cf2'];

function metadata(n) {
  return {
    name: `Far Lantern #${n}`,
    description: `A lantern whose metadata lives off chain, at ipfs://${FAR_LANTERNS_CID}/${n}.json (served by the devnet's local gateway).`,
    image: `ipfs://${FAR_LANTERNS_CID}/${n}.svg`,
    external_url: 'https://example.com/far-lanterns',
    attributes: [{ trait_type: 'Distance', value: n * 100, display_type: 'number' }, { trait_type: 'Color', value: COLORS[n - 1] }],
  };
}

function svg(n) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="#10131c"/>` +
    `<circle cx="50" cy="45" r="${12 + n * 4}" fill="${COLORS[n - 1]}" opacity="0.85"/>` +
    `<text x="50" y="90" font-size="9" text-anchor="middle" fill="#e8e8e8">Far Lantern #${n}</text></svg>`;
}

/** @param {{ port?: number, host?: string }} [opts] */
export async function startNftMetadataServer({ port = 0, host = '127.0.0.1' } = {}) {
  const server = http.createServer((req, res) => {
    const m = new RegExp(`^/ipfs/${FAR_LANTERNS_CID}/([1-3])\\.(json|svg)$`).exec(new URL(req.url ?? '/', 'http://x').pathname);
    if (!m || req.method !== 'GET') {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      return res.end('not found');
    }
    const n = Number(m[1]);
    if (m[2] === 'json') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=3600' });
      return res.end(JSON.stringify(metadata(n)));
    }
    res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' });
    res.end(svg(n));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const actual = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  return {
    url: `http://${host}:${actual}`,
    port: actual,
    stop: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve(undefined));
    }),
  };
}
