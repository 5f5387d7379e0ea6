import { decodeFunctionResult, encodeFunctionData, parseAbi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadManifest } from '../../devnet/evm/index.mjs';
import { nftPageSchema, type NftItem } from '../../lib/interface/nfts';
import { startLantern, type LanternInstance } from '../support/lantern';

/**
 * The devnet's collection with off-chain metadata (SCENARIO.md: curator's Far Lanterns, token URIs
 * `ipfs://<CID>/<n>.json` served by the devnet's local IPFS gateway, which the integration run starts and
 * allow-lists as `npm run dev` does): node mode fetches the metadata in the background and shows names
 * and images; a hosted Lantern fronting it shows the same. Expected values are read from the node
 * (tokenURI over JSON-RPC) and from the gateway itself, never from Lantern.
 */
const KEY = 'far-lanterns-key-0123456789abcdef';
const m = loadManifest();
const CURATOR = m.accounts.curator.address.toLowerCase();
const FAR = m.contracts.farLanterns.address.toLowerCase();
const IDS = ['1', '2', '3', '4'];
const abi = parseAbi(['function tokenURI(uint256) view returns (string)']);

let node: LanternInstance;
let hosted: LanternInstance;
let gateway: string;
/** token id -> its URI on chain and what the gateway serves there (null: nothing). */
const expected = new Map<string, { uri: string; meta: { name: string; image: string } | null }>();

async function tokenUri(id: string): Promise<string> {
  const res = await fetch(inject('evmRpcUrl'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: FAR, data: encodeFunctionData({ abi, functionName: 'tokenURI', args: [BigInt(id)] }) }, 'latest'] }),
  });
  const { result } = (await res.json()) as { result: Hex };
  return decodeFunctionResult({ abi, functionName: 'tokenURI', data: result });
}

beforeAll(async () => {
  gateway = inject('nftGatewayUrl');
  for (const id of IDS) {
    const uri = await tokenUri(id);
    const served = await fetch(`${gateway}/ipfs/${uri.replace(/^ipfs:\/\//, '')}`);
    expected.set(id, { uri, meta: served.ok ? ((await served.json()) as { name: string; image: string }) : null });
  }
  node = await startLantern({ EVM_RPC_URL: inject('evmRpcUrl'), DEVNET_EVM_PORT: String(inject('evmPort')), API_KEYS: KEY });
  hosted = await startLantern({ DATA_API_KEY: KEY, DATA_API_URL: node.url, DEFAULT_CHAIN: 'devnet', API_KEYS: KEY });
}, 120_000);
afterAll(async () => {
  await hosted?.stop();
  await node?.stop();
});

async function farLanterns(base: string, limit: number): Promise<NftItem[]> {
  const res = await fetch(`${base}/api/v2.2/${CURATOR}/nft?chain=devnet&normalizeMetadata=true&media_items=true&limit=${limit}`, { headers: { 'X-API-Key': KEY } });
  expect(res.status).toBe(200);
  return nftPageSchema
    .parse(await res.json())
    .result.filter((n) => n.token_address === FAR)
    .sort((a, b) => Number(a.token_id) - Number(b.token_id));
}

/**
 * Node mode's answer once its background job has fetched every token's metadata (polled, each poll with
 * another limit: a new cache key). Memoised, so every test waits for the same fetch, in whatever order they run.
 */
let settling: Promise<NftItem[]> | undefined;
const settled = () =>
  (settling ??= (async () => {
    let items: NftItem[] = [];
    for (let i = 0; i < 80; i++) {
      items = await farLanterns(node.url, 100 - i);
      if (items.length === IDS.length && items.every((n) => n.media?.status !== 'processing')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    return items;
  })());

describe('the devnet’s off-chain collection (Far Lanterns)', () => {
  it('the devnet serves what the scenario says: three metadata files, and a fourth URI with nothing behind it', () => {
    expect([...expected.values()].map((e) => e.meta?.name ?? null)).toEqual(['Far Lantern #1', 'Far Lantern #2', 'Far Lantern #3', null]);
  });

  it('node mode fetches each token’s metadata from the gateway in the background: names and images as served', async () => {
    const items = await settled();
    expect(items.map((n) => n.token_id)).toEqual(IDS);
    for (const n of items) {
      const want = expected.get(n.token_id)!;
      expect(n.token_uri).toBe(want.uri);
      if (want.meta) {
        expect(JSON.parse(n.metadata!)).toEqual(want.meta);
        expect(n.normalized_metadata).toMatchObject({ name: want.meta.name, image: want.meta.image });
        expect(n.media).toMatchObject({ status: 'success', original_media_url: want.meta.image, mimetype: 'image/svg+xml' });
        expect(typeof n.last_metadata_sync).toBe('string');
      } else {
        expect([n.metadata, n.normalized_metadata?.name, n.last_metadata_sync, n.media?.status]).toEqual([null, null, null, 'host_unavailable']);
      }
    }
  }, 60_000);

  it('a hosted Lantern fronting it answers the same', async () => {
    const items = await settled();
    const viaHosted = await farLanterns(hosted.url, 37);
    const fields = (n: NftItem) => [n.token_id, n.token_uri, n.metadata, n.normalized_metadata?.name, n.normalized_metadata?.image, n.media?.status, n.last_metadata_sync];
    expect(viaHosted.map(fields)).toEqual(items.map(fields));
  }, 60_000);

  it('the NFT page shows each name and its image through the gateway, in node and hosted mode; the token without metadata is a card with its name', async () => {
    await settled();
    for (const base of [node.url, hosted.url]) {
      const res = await fetch(`${base}/wallet/${CURATOR}/nfts?chain=devnet`);
      expect(res.status).toBe(200);
      const html = await res.text();
      for (const id of ['1', '2', '3']) {
        const { meta } = expected.get(id)!;
        const src = `${gateway}/ipfs/${meta!.image.replace(/^ipfs:\/\//, '')}`;
        expect(html).toContain(`<img src="${src}" alt="${meta!.name}"`);
      }
      expect(html).toMatch(new RegExp(`data-token-id="4"[^]*?data-role="nft-fallback"[^]*?Far Lanterns #4`));
      // The CSP admits the gateway's origin, so the browser may load these images.
      expect(res.headers.get('content-security-policy')).toContain(`img-src 'self' data: blob: ${new URL(gateway).origin}`);
    }
  });
});
