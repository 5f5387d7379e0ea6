import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createChain } from '../../devnet/ledger/chain.mjs';
import { startLantern, type LanternInstance } from '../support/lantern';

/** What a newcomer and a shared link meet: icons, previews, the devnet home, and a server warmed before it listens. */
let app: LanternInstance;
const ORIGIN = 'https://lantern.example';
const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

beforeAll(async () => {
  app = await startLantern({
    DEVNET_EVM_PORT: String(inject('evmPort')),
    DEVNET_LEDGER_PORT: String(inject('ledgerPort')),
    PUBLIC_URL: ORIGIN,
    LANTERN_WARM_UP: 'on',
  });
});
afterAll(() => app?.stop());

async function page(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(app.url + path, { headers });
  expect(res.status, path).toBe(200);
  return res.text();
}

function meta(html: string, key: string): string | undefined {
  const m = html.match(new RegExp(`<meta (?:property|name)="${key.replace(/[:]/g, '\\$&')}" content="([^"]*)"`));
  return m?.[1].replaceAll('&amp;', '&');
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(b: Uint8Array): { width: number; height: number } {
  expect([...b.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const v = new DataView(b.buffer, b.byteOffset);
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

describe('link previews', () => {
  it('a wallet page has its title, description, OpenGraph and Twitter tags, on the configured origin whatever Host says', async () => {
    const html = await page(`/wallet/${ALICE}`, { 'x-forwarded-host': 'evil.example' });
    expect(html).toContain('<title>Wallet 0x7099…79C8 · Lantern</title>');
    expect(meta(html, 'og:title')).toBe('Wallet 0x7099…79C8 · Lantern');
    expect(meta(html, 'description')).toBe(`Full transaction history of wallet ${ALICE}: native, token, NFT and internal transfers, in Lantern.`);
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    const image = meta(html, 'og:image')!;
    expect(new URL(image).origin).toBe(ORIGIN);
    expect(new URL(meta(html, 'twitter:image')!).origin).toBe(ORIGIN);
    const res = await fetch(app.url + new URL(image).pathname + new URL(image).search);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(pngSize(new Uint8Array(await res.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
  });

  it('a block page names the block, its version range and the ledger, and its image answers', async () => {
    // Read as a link-preview bot reads it: bots wait for the head, which then holds the block read from
    // its node. (A browser is given the head from the block cache only: see the page's generateMetadata.)
    const html = await page('/ledger/local/versions/32000', { 'user-agent': SLACKBOT });
    expect(html).toContain('<title>Block 4200 · versions 31813–33814 · local ledger · Lantern</title>');
    expect(meta(html, 'og:description')).toBe('Block 4200 of the local ledger: 2,002 transactions (versions 31813–33814), in Lantern.');
    const image = new URL(meta(html, 'og:image')!);
    const res = await fetch(app.url + image.pathname + image.search);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(pngSize(new Uint8Array(await res.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
  });

  it('a browser’s head names the block once the block is cached', async () => {
    const chain = createChain();
    const [first, last] = [chain.firstVersionOf(4100), chain.lastVersionOf(4100)];
    await page(`/ledger/local/versions/${first}`); // the page itself fetches and caches the block
    const html = await page(`/ledger/local/versions/${last}`);
    expect(html).toContain(`<title>Block 4100 · versions ${first}–${last} · local ledger · Lantern</title>`);
  });

  it('a pruned version still previews as what was asked', async () => {
    const html = await page('/ledger/local/versions/5');
    expect(html).toContain('<title>Version 5 · local ledger · Lantern</title>');
    expect(html).toContain('pruned');
  });
});

describe('public files', () => {
  it('the icons, manifest and robots.txt answer with their types, and every icon the manifest names exists', async () => {
    const types: Record<string, string> = {
      '/favicon.ico': 'image/x-icon',
      '/icon.svg': 'image/svg+xml',
      '/apple-touch-icon.png': 'image/png',
      '/manifest.webmanifest': 'application/manifest+json',
      '/robots.txt': 'text/plain; charset=UTF-8',
    };
    for (const [p, type] of Object.entries(types)) {
      const res = await fetch(app.url + p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toBe(type);
      expect(res.headers.get('x-content-type-options'), p).toBe('nosniff');
    }
    const manifest = (await (await fetch(`${app.url}/manifest.webmanifest`)).json()) as { icons: { src: string; type: string }[]; theme_color: string };
    expect(manifest.theme_color).toBe('#16537e');
    for (const icon of manifest.icons) {
      const res = await fetch(app.url + icon.src);
      expect(res.status, icon.src).toBe(200);
      expect(res.headers.get('content-type'), icon.src).toBe(icon.type);
    }
  });

  it('the page head links the icons and the manifest', async () => {
    const html = await page('/');
    expect(html).toContain('<link rel="icon" href="/favicon.ico" sizes="48x48"/>');
    expect(html).toContain('<link rel="icon" href="/icon.svg" type="image/svg+xml"/>');
    expect(html).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png"/>');
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"/>');
  });
});

describe('start-up', () => {
  it('opens the database and loads every route before it listens, so the first visitor does not pay for it', () => {
    const out = app.output();
    const opened = out.indexOf('database open, migrations applied');
    const warmed = out.indexOf('Lantern warmed up');
    const listening = out.indexOf('Lantern listening');
    expect(opened).toBeGreaterThan(-1);
    expect(warmed).toBeGreaterThan(opened);
    expect(listening).toBeGreaterThan(warmed);
    expect(out).not.toContain('warm-up: ');
  });
});
