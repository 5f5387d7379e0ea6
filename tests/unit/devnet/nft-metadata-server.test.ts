import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNftMetadataServer } from '../../../devnet/evm/nft-metadata-server.mjs';
import { FAR_LANTERN_URIS, loadManifest } from '../../../devnet/evm/index.mjs';
import { OutboundRefused, fetchPublicJson } from '../../../lib/security/outbound';
import { resolveMediaUrl } from '../../../lib/view/nft-media';

// `npm run dev`'s local IPFS gateway for the devnet's Far Lanterns, read the way Lantern reads it:
// through NFT_IPFS_GATEWAY, with the dev default allowing that one loopback host.

let server: Awaited<ReturnType<typeof startNftMetadataServer>>;
beforeAll(async () => {
  server = await startNftMetadataServer({ port: 0 });
});
afterAll(() => server?.stop());

const gateways = () => ({ ipfs: `${server.url}/ipfs`, arweave: 'https://arweave.example' });
const opts = () => ({ allowHosts: [`127.0.0.1:${server.port}`], maxBytes: 256 * 1024, timeoutMs: 5000, maxRedirects: 3 });

describe('the devnet NFT metadata gateway', () => {
  it('the scenario gives curator one Far Lantern per URI', () => {
    const m = loadManifest();
    const held = m.final_nft_ownership.filter((n) => n.ownerName === 'curator');
    expect(held.map((n) => [n.contractKey, n.tokenId])).toEqual(FAR_LANTERN_URIS.map((_, i) => ['farLanterns', String(i + 1)]));
  });

  it('serves tokens 1-3 (metadata and an SVG image through the same gateway), and 404 for token 4', async () => {
    for (const [i, uri] of FAR_LANTERN_URIS.slice(0, 3).entries()) {
      const { json } = await fetchPublicJson(resolveMediaUrl(uri, gateways())!, opts());
      expect(json.name).toBe(`Far Lantern #${i + 1}`);
      const image = resolveMediaUrl(json.image, gateways())!;
      const res = await fetch(image);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml');
      expect(await res.text()).toMatch(/^<svg [^>]*>.*Far Lantern #\d<\/text><\/svg>$/);
    }
    const missing = await fetchPublicJson(resolveMediaUrl(FAR_LANTERN_URIS[3], gateways())!, opts()).catch((e: OutboundRefused) => e);
    expect(missing).toBeInstanceOf(OutboundRefused);
    expect((missing as OutboundRefused).reason).toBe('http_status');
  });

  it('without the dev allow list, Lantern refuses it like any loopback address', async () => {
    const refused = await fetchPublicJson(resolveMediaUrl(FAR_LANTERN_URIS[0], gateways())!, { ...opts(), allowHosts: [] }).catch((e: OutboundRefused) => e);
    expect((refused as OutboundRefused).reason).toBe('address_not_public');
  });
});
