import http from 'node:http';
import zlib from 'node:zlib';
import { chromium } from '@playwright/test';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createPublicClient, createWalletClient, http as viemHttp, type Abi, type Address, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import linked721 from '../../devnet/evm/artifacts/Linked721.json';
import linked1155 from '../../devnet/evm/artifacts/Linked1155.json';
import { spawnAnvil } from '../../devnet/evm/anvil.mjs';
import { MNEMONIC } from '../../devnet/evm/index.mjs';
import { nftPageSchema, type NftItem } from '../../lib/interface/nfts';
import { startHostedStub } from '../support/hosted-stub';
import { startLantern, type LanternInstance } from '../support/lantern';
import { freePort } from '../support/ports';
import { freshDatabase } from '../support/services';
import { chromiumArgs, chromiumPath } from '../../scripts/lib/chromium.mjs';

// Off-chain NFT metadata end to end: an anvil of its own with a collection whose token URIs point at
// a local metadata server and a local IPFS/Arweave "gateway" (both on 127.0.0.1, allow-listed for
// this test only by NFT_METADATA_ALLOW_HOSTS), a real `npm start` Lantern in node mode on a
// PostgreSQL database of its own (so the test reads the per-token outcome the fetcher kept), and a
// server on 127.0.0.2 that nothing may ever reach.

type Hits = Map<string, number>;
interface Server {
  port: number;
  hits: Hits;
  connections: number;
  stop: () => Promise<void>;
}

async function serve(host: string, handler: (req: http.IncomingMessage, res: http.ServerResponse, port: number) => void): Promise<Server> {
  const hits: Hits = new Map();
  const s: Server = { port: 0, hits, connections: 0, stop: async () => undefined };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    handler(req, res, s.port);
  });
  server.on('connection', (sock) => {
    s.connections++;
    sock.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  s.port = (server.address() as AddressInfo).port;
  s.stop = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return s;
}

/** A real PNG (2x2, one colour), so a browser that loads it reports its natural size. */
function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), ...Array.from({ length: w }, () => Buffer.from(rgb))]);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(Buffer.concat(Array.from({ length: h }, () => row)))), chunk('IEND', Buffer.alloc(0))]);
}
const GOOD_PNG = png(2, 2, [240, 190, 60]);

const HOSTILE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="fetch(\'/steal\')"><script>fetch("/steal")</script><rect width="10" height="10" fill="red"/></svg>';
const HOSTILE_NAME = '<script>alert("name")</script>\u202eevil';
const CID = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi';
const AR_TX = 'bNbA3TEQVL60xlgCcqdz4ZPHFZ711cZ3hmkpGttDt_U';

let metaServer: Server;
let gateway: Server;
let inner: Server;
let anvil: Awaited<ReturnType<typeof spawnAnvil>>;
let lantern: LanternInstance;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let collection: Address;
let items: Address;
const deployer = mnemonicToAccount(MNEMONIC, { addressIndex: 0 });
const collector = mnemonicToAccount(MNEMONIC, { addressIndex: 1 }).address.toLowerCase();
const ITEM_ID = 0x1a2bn;

/** token id (1-based mint order) -> what its URI is for. */
const URIS: [string, (m: number, inn: number) => string][] = [
  ['good', (m) => `http://127.0.0.1:${m}/meta/good.json`],
  ['ipfs', () => `ipfs://${CID}/7.json`],
  ['arweave', () => `ar://${AR_TX}`],
  ['huge', (m) => `http://127.0.0.1:${m}/meta/huge.json`],
  ['slow', (m) => `http://127.0.0.1:${m}/meta/slow.json`],
  ['html', (m) => `http://127.0.0.1:${m}/meta/page.html`],
  ['redirected', (m) => `http://127.0.0.1:${m}/meta/hop1`],
  ['redirect-loop', (m) => `http://127.0.0.1:${m}/meta/loop`],
  ['to-private', (m) => `http://127.0.0.1:${m}/meta/to-inner`],
  ['private-direct', (_m, inn) => `http://127.0.0.2:${inn}/x.json`],
  ['decimal-ip', (_m, inn) => `http://2130706434:${inn}/x.json`],
  ['mapped-ipv6', (_m, inn) => `http://[::ffff:127.0.0.2]:${inn}/x.json`],
  ['hostile', (m) => `http://127.0.0.1:${m}/meta/hostile.json`],
  ['javascript', () => 'javascript:alert(1)'],
  ['disguised', (m) => `http://127.0.0.1:${m}/meta/disguised.json`],
  ['private-image', (m) => `http://127.0.0.1:${m}/meta/private-image.json`],
];
const idOf = (name: string) => String(URIS.findIndex(([n]) => n === name) + 1);

beforeAll(async () => {
  inner = await serve('127.0.0.2', (_q, res) => res.end('{"name":"internal secret"}'));
  metaServer = await serve('127.0.0.1', (req, res, port) => {
    const path = new URL(req.url!, 'http://x').pathname;
    const json = (v: unknown) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(typeof v === 'string' ? v : JSON.stringify(v));
    };
    const redirect = (to: string) => {
      res.statusCode = 302;
      res.setHeader('Location', to);
      res.end();
    };
    if (path === '/meta/good.json' && goodFails) {
      res.statusCode = 503;
      return res.end();
    }
    if (path === '/meta/good.json') return json({ name: 'Good Lantern', description: 'Fetched off chain', image: `http://127.0.0.1:${port}/img/good.png`, attributes: [{ trait_type: 'Glow', value: 7 }] });
    if (path === '/meta/huge.json') return json({ name: 'Huge', pad: 'x'.repeat(300 * 1024) });
    if (path === '/meta/slow.json') return void setTimeout(() => json({ name: 'Too late' }), 8000);
    if (path === '/meta/page.html') {
      res.setHeader('Content-Type', 'text/html');
      return res.end('<html><body>not metadata</body></html>');
    }
    if (path === '/meta/hop1') return redirect('/meta/hop2');
    if (path === '/meta/hop2') return redirect(`http://127.0.0.1:${port}/meta/redirected.json`);
    if (path === '/meta/redirected.json') return json({ name: 'After two redirects' });
    if (path === '/meta/loop') return redirect('/meta/loop');
    if (path === '/meta/to-inner') return redirect(`http://127.0.0.2:${inner.port}/x.json`);
    if (path === '/meta/hostile.json')
      return json({ name: HOSTILE_NAME, description: '<img src=x onerror=alert(1)>', image: `http://127.0.0.1:${port}/img/hostile.svg`, external_url: 'javascript:alert(1)' });
    if (path === '/meta/disguised.json') return json({ name: 'Disguised', image: `http://127.0.0.1:${port}/img/disguised.png` });
    if (path === '/meta/private-image.json') return json({ name: 'Inside', image: `http://127.0.0.2:${inner.port}/x.png` });
    if (path.startsWith('/items/')) return json({ name: `Item ${path.slice(7, -5)}` });
    if (path === '/img/good.png') {
      res.setHeader('Content-Type', 'image/png');
      return res.end(GOOD_PNG);
    }
    if (path === '/img/disguised.png') {
      // SVG markup under a PNG content type: the proxy goes by the bytes.
      res.setHeader('Content-Type', 'image/png');
      return res.end(HOSTILE_SVG);
    }
    if (path === '/img/hostile.svg') {
      res.setHeader('Content-Type', 'image/svg+xml');
      return res.end(HOSTILE_SVG);
    }
    res.statusCode = 404;
    res.end();
  });
  gateway = await serve('127.0.0.1', (req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    res.setHeader('Content-Type', 'application/json');
    if (path === `/ipfs/${CID}/7.json`) return res.end(JSON.stringify({ name: 'From IPFS', image: `ipfs://${CID}/7.png` }));
    if (path === `/ar/${AR_TX}`) return res.end(JSON.stringify({ name: 'From Arweave' }));
    res.statusCode = 404;
    res.end('{}');
  });

  anvil = await spawnAnvil({ port: await freePort() });
  const transport = viemHttp(anvil.url);
  const wallet = createWalletClient({ account: deployer, chain: foundry, transport });
  const client = createPublicClient({ chain: foundry, transport });
  const deploy = async (artifact: { abi: unknown; bytecode: string }, args: unknown[]) => {
    const hash = await wallet.deployContract({ abi: artifact.abi as Abi, bytecode: artifact.bytecode as Hex, args });
    return (await client.waitForTransactionReceipt({ hash })).contractAddress!;
  };
  collection = await deploy(linked721, ['Far Lights', 'FAR']);
  items = await deploy(linked1155, ['Far Items', 'FITM', `http://127.0.0.1:${metaServer.port}/items/{id}.json`]);
  for (const [, uri] of URIS) {
    const hash = await wallet.writeContract({ address: collection, abi: linked721.abi as Abi, functionName: 'mint', args: [collector, uri(metaServer.port, inner.port)] });
    await client.waitForTransactionReceipt({ hash });
  }
  const hash = await wallet.writeContract({ address: items, abi: linked1155.abi as Abi, functionName: 'mint', args: [collector, ITEM_ID, 3n] });
  await client.waitForTransactionReceipt({ hash });

  database = await freshDatabase();
  startedAt = Date.now();
  lantern = await startLantern({
    EVM_RPC_URL: anvil.url,
    DATABASE_URL: database.url,
    NFT_METADATA_ALLOW_HOSTS: `127.0.0.1:${metaServer.port},127.0.0.1:${gateway.port}`,
    NFT_IPFS_GATEWAY: `http://127.0.0.1:${gateway.port}/ipfs`,
    NFT_ARWEAVE_GATEWAY: `http://127.0.0.1:${gateway.port}/ar`,
    RATE_LIMIT_PER_MINUTE: '1000',
  });
}, 120_000);

afterAll(async () => {
  await lantern?.stop();
  await database?.drop();
  await anvil?.stop();
  for (const s of [metaServer, gateway, inner]) await s?.stop();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are parsed with the schemas or checked field by field
async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${lantern.url}${path}`);
  return { status: res.status, body: await res.json() };
}

/** A GET's status, sent from `localAddress` (a loopback address of its own: a client of its own). */
function statusFrom(localAddress: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${lantern.url}${path}`, { localAddress }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

async function outcomes(): Promise<Map<string, { status: string; reason: string | null }>> {
  const c = new pg.Client({ connectionString: database.url });
  await c.connect();
  try {
    const { rows } = await c.query<{ token_address: string; token_id: string; status: string; reason: string | null }>(
      'SELECT token_address, token_id::text AS token_id, status, reason FROM evm_nft_metadata_fetch',
    );
    return new Map(rows.map((r) => [`${r.token_address}:${r.token_id}`, { status: r.status, reason: r.reason }]));
  } finally {
    await c.end();
  }
}

let listing: NftItem[];
let plainItems: Record<string, unknown>[];
let startedAt: number;
/** The media-proxy URLs the NFT page signed, by token. */
let proxiedUrls: Record<'good' | 'hostile' | 'disguised' | 'inside', string>;
/** While set, the metadata server answers 503 for the good token's JSON (a host that went down). */
let goodFails = false;
/** Fetches of the good token's JSON the resync test causes (its async resync finishes in the background). */
let goodHitsAfterResyncs = 0;

// One story in steps over one server and its background job, in written order: the job's fetches, then
// the listing, page, media proxy and resyncs that read what it fetched (and leave state the next reads).
describe('off-chain NFT metadata in node mode', { shuffle: false }, () => {
  it('the background job fetches what is good and refuses the rest, with a reason kept per token', async () => {
    const query = `/api/v2.2/${collector}/nft?normalizeMetadata=true&media_items=true&limit=100`;
    const first = await get(query);
    expect(first.status).toBe(200);
    // Every off-chain token reaches a final outcome (the slow one takes its 5 s timeout).
    let rows = await outcomes();
    for (let i = 0; i < 200 && ([...rows.values()].filter((r) => r.status !== 'fetching').length < URIS.length + 1); i++) {
      await new Promise((r) => setTimeout(r, 150));
      if (i % 10 === 0) await get(query);
      rows = await outcomes();
    }
    const c = collection.toLowerCase();
    const want: Record<string, [string, string | null]> = {
      good: ['ok', null],
      ipfs: ['ok', null],
      arweave: ['ok', null],
      huge: ['failed', 'too_large'],
      slow: ['failed', 'timeout'],
      html: ['failed', 'not_json'],
      redirected: ['ok', null],
      'redirect-loop': ['failed', 'too_many_redirects'],
      'to-private': ['failed', 'address_not_public'],
      'private-direct': ['failed', 'address_not_public'],
      'decimal-ip': ['failed', 'address_not_public'],
      'mapped-ipv6': ['failed', 'address_not_public'],
      hostile: ['ok', null],
      javascript: ['failed', 'scheme_not_allowed'],
      disguised: ['ok', null],
      'private-image': ['ok', null],
    };
    const got = Object.fromEntries(Object.keys(want).map((name) => [name, rows.get(`${c}:${idOf(name)}`)]));
    expect(got).toEqual(Object.fromEntries(Object.entries(want).map(([k, [status, reason]]) => [k, { status, reason }])));
    expect(rows.get(`${items.toLowerCase()}:${ITEM_ID}`)).toEqual({ status: 'ok', reason: null });

    // Nothing ever reached the address that is not allow-listed, in any of its spellings or via a redirect.
    expect(inner.connections).toBe(0);
    // ERC-1155 `{id}`: lowercase hex, 64 digits, no 0x.
    expect([...metaServer.hits.keys()].filter((p) => p.startsWith('/items/'))).toEqual([`/items/${ITEM_ID.toString(16).padStart(64, '0')}.json`]);
    // The gateways were asked for the ipfs:// and ar:// URIs.
    expect(gateway.hits.get(`/ipfs/${CID}/7.json`)).toBe(1);
    expect(gateway.hits.get(`/ar/${AR_TX}`)).toBe(1);
    // Each redirect hop once; the loop stopped after 3 redirects (4 requests).
    expect(metaServer.hits.get('/meta/loop')).toBe(4);

    // Until the listing cache (30 s for SYNCED answers) turns over, ask with a new query shape (a new
    // limit: parameters given at their defaults make the same key).
    // Prices asked for (include_prices); the same listing without them is read too.
    const { status, body } = await get(query.replace('limit=100', 'limit=99') + '&include_prices=true');
    expect(status).toBe(200);
    listing = nftPageSchema.parse(body).result;
    const plain = await get(query.replace('limit=100', 'limit=98'));
    expect(plain.status).toBe(200);
    plainItems = plain.body.result;
  }, 90_000);

  it('the listing shows fetched metadata, normalized_metadata, media and true sync times', async () => {
    const by = (name: string) => listing.find((n) => n.token_address === collection.toLowerCase() && n.token_id === idOf(name))!;
    const good = by('good');
    expect(JSON.parse(good.metadata!)).toEqual({ name: 'Good Lantern', description: 'Fetched off chain', image: `http://127.0.0.1:${metaServer.port}/img/good.png`, attributes: [{ trait_type: 'Glow', value: 7 }] });
    expect(good.normalized_metadata).toMatchObject({ name: 'Good Lantern', description: 'Fetched off chain', image: `http://127.0.0.1:${metaServer.port}/img/good.png` });
    expect(good.media).toMatchObject({ status: 'success', mimetype: 'image/png', original_media_url: `http://127.0.0.1:${metaServer.port}/img/good.png` });
    // Synced during this run: after the server started, not after this moment.
    for (const t of [good.last_metadata_sync, good.last_token_uri_sync]) {
      expect(typeof t).toBe('string');
      expect(Date.parse(t!)).toBeGreaterThanOrEqual(startedAt);
      expect(Date.parse(t!)).toBeLessThanOrEqual(Date.now());
    }
    expect(by('ipfs').normalized_metadata?.name).toBe('From IPFS');
    expect(by('arweave').normalized_metadata?.name).toBe('From Arweave');
    expect(by('redirected').normalized_metadata?.name).toBe('After two redirects');
    const huge = by('huge');
    expect(huge.metadata).toBeNull();
    expect(huge.last_metadata_sync).toBeNull();
    expect(typeof huge.last_token_uri_sync).toBe('string');
    expect(huge.media?.status).toBe('host_unavailable');
    expect(by('to-private').metadata).toBeNull();
    const item = listing.find((n) => n.token_address === items.toLowerCase())!;
    expect(item.token_uri).toBe(`http://127.0.0.1:${metaServer.port}/items/${ITEM_ID.toString(16).padStart(64, '0')}.json`);
    expect(item.normalized_metadata?.name).toBe(`Item ${ITEM_ID.toString(16).padStart(64, '0')}`);
    // include_prices=true: every price field of the interface is there and null (a node knows no prices);
    // without it, none is.
    const prices = ['floor_price', 'floor_price_usd', 'floor_price_currency', 'last_sale'];
    for (const n of listing) expect(Object.fromEntries(prices.map((k) => [k, (n as Record<string, unknown>)[k]]))).toEqual({ floor_price: null, floor_price_usd: null, floor_price_currency: null, last_sale: null });
    expect(plainItems).toHaveLength(listing.length);
    for (const n of plainItems) expect(prices.filter((k) => k in n)).toEqual([]);
  });

  it('the NFT page shows names and images as text and <img> only; images off the CSP’s origins go through the signed media proxy', async () => {
    const res = await fetch(`${lantern.url}/wallet/${collector}/nfts?spam=true`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Good Lantern');
    // The image's origin is not in img-src (only self, data:, the gateways, NFT_MEDIA_ORIGINS): the page
    // names it through Lantern's own proxy, signed.
    const proxied = (image: string) => {
      const m = new RegExp(`<img src="(/api/nft-media\\?u=${encodeURIComponent(image).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}&amp;s=[A-Za-z0-9_-]{43})"`).exec(html);
      expect(m, image).not.toBeNull();
      return m![1].replaceAll('&amp;', '&');
    };
    const good = proxied(`http://127.0.0.1:${metaServer.port}/img/good.png`);
    const hostile = proxied(`http://127.0.0.1:${metaServer.port}/img/hostile.svg`);
    const disguised = proxied(`http://127.0.0.1:${metaServer.port}/img/disguised.png`);
    const inside = proxied(`http://127.0.0.2:${inner.port}/x.png`);
    // An ipfs:// image goes straight to the gateway, which the CSP admits.
    expect(html).toContain(`<img src="http://127.0.0.1:${gateway.port}/ipfs/${CID}/7.png"`);
    expect(html).not.toContain('<script>fetch("/steal")');
    expect(html).not.toMatch(/<(object|embed|iframe)\b/i);
    expect(html).not.toContain('<script>alert("name")');
    expect(html).not.toContain('href="javascript:');
    expect(metaServer.hits.get('/img/good.png')).toBeUndefined(); // rendering the page fetched no image
    proxiedUrls = { good, hostile, disguised, inside };
  });

  it('the media proxy passes a raster image under its sniffed type with a CSP that runs nothing; SVG, a disguised SVG, a private address and a forged URL are refused', async () => {
    const before = metaServer.hits.get('/img/good.png') ?? 0;
    const ok = await fetch(lantern.url + proxiedUrls.good);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/png');
    expect(ok.headers.get('x-content-type-options')).toBe('nosniff');
    expect(ok.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(Buffer.from(await ok.arrayBuffer()).equals(GOOD_PNG)).toBe(true);
    expect(metaServer.hits.get('/img/good.png')).toBe(before + 1);
    // Kept: a second request is answered without asking the server again.
    expect((await fetch(lantern.url + proxiedUrls.good)).status).toBe(200);
    expect(metaServer.hits.get('/img/good.png')).toBe(before + 1);

    const svg = await fetch(lantern.url + proxiedUrls.hostile);
    expect(svg.status).toBe(415);
    expect(await svg.json()).toEqual({ code: 'unsupported_media_type', message: 'The image is not one Lantern passes on: content type image/svg+xml is not a raster image.' });
    const disguised = await fetch(lantern.url + proxiedUrls.disguised);
    expect(disguised.status).toBe(415);
    expect((await disguised.json()).message).toBe('The image is not one Lantern passes on: the body is not a PNG, JPEG, GIF, WebP or AVIF image.');

    const inside = await fetch(lantern.url + proxiedUrls.inside);
    expect(inside.status).toBe(502);
    expect((await inside.json()).message).toBe(`The image could not be fetched (address_not_public): address 127.0.0.2 is not public (loopback).`);
    expect(inner.connections).toBe(0);

    // A URL the page did not sign is not fetched: no open proxy.
    const target = `http://127.0.0.1:${metaServer.port}/img/good.png?other`;
    const forged = await fetch(`${lantern.url}/api/nft-media?u=${encodeURIComponent(target)}&s=${new URL(proxiedUrls.good, 'http://x').searchParams.get('s')}`);
    expect(forged.status).toBe(403);
    expect((await forged.json()).code).toBe('forbidden');
    const unsigned = await fetch(`${lantern.url}/api/nft-media?u=${encodeURIComponent(target)}`);
    expect(unsigned.status).toBe(403);
    expect([...metaServer.hits.keys()].filter((k) => k === '/img/good.png').length).toBe(1);
    expect(metaServer.hits.get('/img/good.png')).toBe(before + 1);
  });

  it('in Chromium, the proxied image loads (natural size 2x2); a refused or missing image leaves the card with its name', async () => {
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
    try {
      const page = await browser.newPage();
      const blocked: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
      });
      await page.goto(`${lantern.url}/wallet/${collector}/nfts?spam=true`);
      const card = (name: string) => page.locator(`li[data-contract="${collection.toLowerCase()}"][data-token-id="${idOf(name)}"]`);
      const img = card('good').locator('img[data-role="nft-image"]');
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => [el.complete, el.naturalWidth, el.naturalHeight]), { timeout: 15_000 }).toEqual([true, 2, 2]);
      // Refused by the proxy (SVG, disguised SVG, private address) or missing at the gateway (404): the name.
      // The hostile name is shown as inert text, its direction override dropped.
      for (const [name, text] of [['hostile', '<script>alert("name")</script>evil'], ['disguised', 'Disguised'], ['private-image', 'Inside'], ['ipfs', 'From IPFS']] as const) {
        const fallback = card(name).locator('[data-role="nft-fallback"]');
        await fallback.scrollIntoViewIfNeeded();
        await expect.poll(() => fallback.count(), { timeout: 15_000 }).toBe(1);
        expect(await fallback.textContent()).toBe(text);
        expect(await card(name).locator('img').count()).toBe(0);
      }
      expect(blocked).toEqual([]);
      expect(inner.connections).toBe(0);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('resync re-reads the token URI and fetches again; sync answers 200, async 202; bad input is a 400', async () => {
    const base = `/api/v2.2/nft/${collection}/${idOf('good')}/metadata/resync`;
    const before = metaServer.hits.get('/meta/good.json');
    const sync = await get(`${base}?flag=uri&mode=sync`);
    expect(sync).toEqual({ status: 200, body: { status: 'The metadata was fetched' } });
    expect(metaServer.hits.get('/meta/good.json')).toBe(before! + 1);

    const refused = await get(`/api/v2.2/nft/${collection}/${idOf('to-private')}/metadata/resync?flag=metadata&mode=sync`);
    expect(refused.status).toBe(200);
    expect(refused.body.reason).toBe('address_not_public');
    expect(inner.connections).toBe(0);

    const async = await get(`${base}?flag=metadata&mode=async`);
    expect(async.status).toBe(202);
    goodHitsAfterResyncs = before! + 2;
    expect(typeof async.body.status).toBe('string');

    expect(await get(`/api/v2.2/nft/${collection}/abc/metadata/resync`)).toEqual({
      status: 400,
      body: { message: 'token_id: expected a decimal token id', code: 'invalid_parameter', parameter: 'token_id' },
    });
    const badFlag = await get(`${base}?flag=everything`);
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.parameter).toBe('flag');
    const unknown = await get(`/api/v2.2/nft/${collection}/999/metadata/resync?mode=sync`);
    expect(unknown.status).toBe(404);
  });

  it('a resync that fails keeps the metadata it had and the time that metadata was fetched', async () => {
    const good = async (limit: number) =>
      nftPageSchema.parse((await get(`/api/v2.2/${collector}/nft?normalizeMetadata=true&limit=${limit}`)).body).result.find(
        (n) => n.token_address === collection.toLowerCase() && n.token_id === idOf('good'),
      )!;
    // (each read a new limit: a new cache key, so the listing is read from the database again)
    // The previous test's async resync first ends (one resync per token at a time: a sync one would join it).
    for (let i = 0; i < 100 && (metaServer.hits.get('/meta/good.json') !== goodHitsAfterResyncs || (await outcomes()).get(`${collection.toLowerCase()}:${idOf('good')}`)?.status !== 'ok'); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const before = await good(97);
    expect(before.normalized_metadata?.name).toBe('Good Lantern');
    expect(typeof before.last_metadata_sync).toBe('string');
    goodFails = true;
    try {
      const failed = await get(`/api/v2.2/nft/${collection}/${idOf('good')}/metadata/resync?flag=metadata&mode=sync`);
      expect(failed).toEqual({ status: 200, body: { status: 'The metadata could not be fetched (http_status): HTTP 503', reason: 'http_status' } });
    } finally {
      goodFails = false;
    }
    const after = await good(96);
    expect(after.metadata).toBe(before.metadata);
    expect(after.normalized_metadata?.name).toBe('Good Lantern');
    expect(after.last_metadata_sync).toBe(before.last_metadata_sync);
    expect(after.last_token_uri_sync).toBe(before.last_token_uri_sync);
  });

  it('resync is rate-limited per client (20 a minute)', async () => {
    // From a loopback address no other test uses (Lantern counts per connecting address), so the window
    // is this test's own, opened by its first request.
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push(await statusFrom('127.0.0.3', `/api/v2.2/nft/${collection}/${idOf('good')}/metadata/resync?flag=metadata&mode=async`));
    expect(statuses).toEqual([...Array(20).fill(202), ...Array(25).fill(429)]);
  });
});

describe('resync in hosted mode', () => {
  it('is forwarded to the hosted API at its path, with the key, and answers its status (200 sync, 202 async)', async () => {
    const stub = await startHostedStub({ apiKey: 'hosted-resync-test-key-0123456789' });
    const hosted = await startLantern({
      DATA_API_KEY: stub.apiKey,
      DATA_API_URL: stub.url,
      AUTH_API_URL: stub.url,
      // Every upstream on loopback: health checks and start-up never wait on the internet.
      LEDGER_API_URL_MAINNET: `${stub.url}/mainnet`,
      LEDGER_API_URL_TESTNET: `${stub.url}/testnet`,
      UPSTREAM_TIMEOUT_MS: '1500',
    });
    try {
      const contract = '0x' + 'ab'.repeat(20);
      stub.fault(/\/metadata\/resync$/, { kind: 'status', status: 200, body: { status: 'Metadata resync request was processed' } }, 1);
      const sync = await fetch(`${hosted.url}/api/v2.2/nft/${contract}/42/metadata/resync?chain=eth&flag=metadata&mode=sync`);
      expect(sync.status).toBe(200);
      expect(await sync.json()).toEqual({ status: 'Metadata resync request was processed' });
      const forwarded = stub.requests.filter((r) => r.path.endsWith('/metadata/resync'));
      // (the address goes upstream in its checksum form, as Lantern's other hosted calls send it)
      expect(forwarded.map((r) => [r.path.toLowerCase(), r.query.get('chain'), r.query.get('flag'), r.query.get('mode')])).toEqual([
        [`/api/v2.2/nft/${contract}/42/metadata/resync`, '0x1', 'metadata', 'sync'],
      ]);
      expect(forwarded[0].headers['x-api-key']).toBe(stub.apiKey);

      stub.fault(/\/metadata\/resync$/, { kind: 'status', status: 202, body: { status: 'Metadata resync request queued' } }, 1);
      const queued = await fetch(`${hosted.url}/api/v2.2/nft/${contract}/42/metadata/resync?chain=eth`);
      expect(queued.status).toBe(202);
      expect(await queued.json()).toEqual({ status: 'Metadata resync request queued' });
    } finally {
      await hosted.stop();
      await stub.close();
    }
  }, 150_000); // a second production server's start-up, on a busy machine
});
