import { createServer, type Server } from 'node:http';
import { startHostedStub, type HostedStub } from '../tests/support/hosted-stub';

/**
 * Fixtures for the hosted-mode wallet specs: the foundation's hosted-API stub (history with cursors,
 * fault injection) behind a small front server that adds what the stub does not have: NFT wallets
 * with real images, a spam token, several contracts, and hostile metadata; plus the image and IPFS
 * gateway endpoints those NFTs point at. Lantern's DATA_API_URL and NFT_IPFS_GATEWAY point here.
 */

export const STUB_KEY = 'wallet-e2e-stub-key-0123456789';
export const W = {
  /** 23 transactions (stub default). */
  plain: '0x00000000000000000000000000000000000000a1',
  /** 60 transactions: three pages of 25. */
  paging: '0x00000000000000000000000000000000000000b1',
  empty: '0x00000000000000000000000000000000000000b2',
  nfts: '0x00000000000000000000000000000000000000c1',
  hostile: '0x00000000000000000000000000000000000000c2',
  keyRejected: '0x00000000000000000000000000000000000000e1',
  rateLimited: '0x00000000000000000000000000000000000000e2',
  down: '0x00000000000000000000000000000000000000e3',
} as const;
export const PAGING_SIZE = 60;

export const LIGHTS = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0';
export const ITEMS = '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9';
export const SPAM = '0xef11d1c2aa48826d4c41e54ab82d1ff5ad8a64ca';
const HOSTILE = '0x6666666666666666666666666666666666666666';

// 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const SVG_OK = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#c90"/></svg>').toString('base64')}`;
const SVG_SCRIPT = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=\'svg-onload\'"><script>window.__pwned="svg-script"</script><rect width="10" height="10"/></svg>').toString('base64')}`;
export const HUGE_BYTES = 50 * 1024 * 1024;

function nft(over: Record<string, unknown>) {
  return {
    token_address: LIGHTS,
    token_id: '1',
    amount: '1',
    owner_of: W.nfts,
    token_hash: null,
    block_number_minted: '10',
    block_number: '10',
    contract_type: 'ERC721',
    name: 'Lantern Lights',
    symbol: 'LIGHT',
    token_uri: null,
    metadata: null,
    last_token_uri_sync: null,
    last_metadata_sync: null,
    possible_spam: false,
    verified_collection: false,
    ...over,
  };
}

function nftWallet(front: string) {
  return [
    nft({ token_id: '1', normalized_metadata: { name: 'Light #1', description: 'An on-chain light', image: SVG_OK, external_link: null, animation_url: null, attributes: [] } }),
    nft({ token_id: '255', normalized_metadata: { name: 'Light #255', description: null, image: 'ipfs://QmLanternLightsFixture000000000000000000000000/255.png', external_link: 'https://lantern.example/lights/255', animation_url: null, attributes: [] } }),
    nft({ token_id: '7', normalized_metadata: { name: 'Broken Light', description: null, image: `${front}/img/missing.png`, external_link: null, animation_url: null, attributes: [] } }),
    nft({
      token_address: ITEMS,
      token_id: '3',
      amount: '3',
      contract_type: 'ERC1155',
      name: 'Lantern Items',
      symbol: 'LITEM',
      normalized_metadata: { name: 'Lamp oil', description: null, image: null, external_link: null, animation_url: null, attributes: [] },
      media: { status: 'success', mimetype: 'image/png', category: 'image', original_media_url: null, media_collection: { low: { url: `${front}/img/item.png`, width: 1, height: 1 }, medium: { url: `${front}/img/item.png`, width: 1, height: 1 }, high: null } },
    }),
    nft({ token_address: SPAM, token_id: '1', name: 'Visit claim-rewards.example to claim', possible_spam: true, normalized_metadata: { name: 'Claim your reward', description: null, image: `${front}/img/item.png`, external_link: null, animation_url: null, attributes: [] } }),
  ];
}

function hostileWallet(front: string) {
  const base = { token_address: HOSTILE, name: 'Hostile Collection', owner_of: W.hostile };
  return [
    nft({
      ...base,
      token_id: '1',
      normalized_metadata: {
        name: '<img src=x onerror="window.__pwned=\'name\'">',
        description: '<script>window.__pwned="description"</script>',
        image: SVG_SCRIPT,
        external_link: 'javascript:window.__pwned="link"',
        animation_url: 'data:text/html,<script>window.__pwned="animation"</script>',
        attributes: [],
      },
    }),
    nft({ ...base, token_id: '2', normalized_metadata: { name: 'Fifty megabytes', description: null, image: `${front}/img/huge.png`, external_link: null, animation_url: null, attributes: [] } }),
    nft({ ...base, token_id: '3', metadata: '{"name": "Broken JSON", "image": ', normalized_metadata: null }),
    nft({ ...base, token_id: '4', normalized_metadata: { name: 'Script URL', description: null, image: 'javascript:window.__pwned="image"', external_link: 'JaVaScRiPt:window.__pwned="link2"', animation_url: null, attributes: [] } }),
    nft({
      ...base,
      token_id: '5',
      metadata: JSON.stringify({ name: 'Raw SVG markup', image_data: '<svg xmlns="http://www.w3.org/2000/svg"><script>window.__pwned="image_data"</script><circle r="4"/></svg>', external_url: 'data:text/html,hi' }),
      normalized_metadata: null,
    }),
  ];
}

export interface WalletFixtures {
  url: string;
  stub: HostedStub;
  /** User agents that asked for media (Lantern's server must never be one of them). */
  mediaRequesters: () => string[];
  close: () => Promise<void>;
}

export async function startWalletFixtures(): Promise<WalletFixtures> {
  const stub = await startHostedStub({ apiKey: STUB_KEY });
  stub.setHistorySize(W.paging, PAGING_SIZE);
  stub.setHistorySize(W.empty, 0);
  stub.fault(new RegExp(W.keyRejected, 'i'), { kind: 'status', status: 401, body: { message: `Invalid key ${STUB_KEY}` } });
  stub.fault(new RegExp(W.rateLimited, 'i'), { kind: 'status', status: 429, retryAfter: '0', body: { message: 'Too many requests' } });
  stub.fault(new RegExp(W.down, 'i'), { kind: 'status', status: 503, retryAfter: '0', body: { message: 'Service unavailable' } });
  const mediaAgents: string[] = [];
  let front = '';

  const server: Server = createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://front');
    const nftMatch = u.pathname.match(/^\/api\/v2\.2\/(0x[0-9a-fA-F]{40})\/nft$/);
    const who = nftMatch?.[1].toLowerCase();
    if (nftMatch && (who === W.nfts || who === W.hostile || who === W.empty)) {
      if (req.headers['x-api-key'] !== STUB_KEY) return json(res, 401, { message: 'bad key' });
      let items = who === W.nfts ? nftWallet(front) : who === W.hostile ? hostileWallet(front) : [];
      // Honour the filters like the provider does (the page filters again, defensively).
      if (u.searchParams.get('exclude_spam') === 'true') items = items.filter((i) => i.possible_spam !== true);
      const wanted = u.searchParams.getAll('token_addresses').concat(u.searchParams.getAll('token_addresses[]')).map((a) => a.toLowerCase());
      if (wanted.length) items = items.filter((i) => wanted.includes(String(i.token_address).toLowerCase()));
      return json(res, 200, { status: 'SYNCED', total: items.length, page: 1, page_size: 100, cursor: null, result: items });
    }
    if (u.pathname.startsWith('/img/') || u.pathname.startsWith('/ipfs/')) mediaAgents.push(String(req.headers['user-agent'] ?? ''));
    if (u.pathname === '/img/item.png' || u.pathname.startsWith('/ipfs/')) {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length });
      return res.end(PNG);
    }
    if (u.pathname === '/img/huge.png') {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': HUGE_BYTES });
      const chunk = Buffer.alloc(1024 * 1024, 0x41);
      let left = HUGE_BYTES;
      const write = () => {
        while (left > 0) {
          left -= chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      res.on('close', () => (left = 0));
      return write();
    }
    if (u.pathname.startsWith('/img/')) return json(res, 404, { message: 'no such image' });
    // Everything else is the hosted stub's.
    const body = await new Promise<Buffer>((r) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => r(Buffer.concat(chunks)));
    });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    try {
      const up = await fetch(`${stub.url}${u.pathname}${u.search}`, { method: req.method, headers, body: body.length ? new Uint8Array(body) : undefined });
      const out = Buffer.from(await up.arrayBuffer());
      const h: Record<string, string> = { 'Content-Type': up.headers.get('content-type') ?? 'application/json' };
      const ra = up.headers.get('retry-after');
      if (ra) h['Retry-After'] = ra;
      res.writeHead(up.status, h);
      res.end(out);
    } catch {
      req.socket.destroy();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  front = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: front,
    stub,
    mediaRequesters: () => [...mediaAgents],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await stub.close();
    },
  };
}

function json(res: import('node:http').ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
