import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createChain } from '../../devnet/ledger/chain.mjs';
import { startLantern, type LanternInstance } from '../support/lantern';

/** What a newcomer and a shared link meet: icons, previews, the devnet home, and a server that listens at once and warms up behind it. */
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

async function page(p: string, headers: Record<string, string> = {}, on: LanternInstance = app) {
  const res = await fetch(on.url + p, { headers });
  expect(res.status, p).toBe(200);
  return res.text();
}

/** Every tag a link preview is made of: title, description, OpenGraph, Twitter (image URLs as paths). */
function previewTags(html: string) {
  const path = (u: string | undefined) => (u ? new URL(u).pathname + new URL(u).search : u);
  return {
    title: html.match(/<title>([^<]*)<\/title>/)?.[1],
    description: meta(html, 'description'),
    og: { title: meta(html, 'og:title'), description: meta(html, 'og:description'), image: path(meta(html, 'og:image')) },
    twitter: { card: meta(html, 'twitter:card'), title: meta(html, 'twitter:title'), image: path(meta(html, 'twitter:image')) },
  };
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

  it('a block page names the block, its version range and the ledger, and its images answer', async () => {
    // Read as a link-preview bot reads it: bots wait for the head, which then holds the block read from
    // its node. (A browser is given the head from the block cache only: see the page's generateMetadata.)
    const html = await page('/ledger/local/versions/32000', { 'user-agent': SLACKBOT });
    expect(html).toContain('<title>Block 4200 · versions 31813–33814 · local ledger · Lantern</title>');
    expect(meta(html, 'og:title')).toBe('Block 4200 · versions 31813–33814 · local ledger · Lantern');
    expect(meta(html, 'og:description')).toBe('Block 4200 of the local ledger: 2,002 transactions (versions 31813–33814), in Lantern.');
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    expect(meta(html, 'twitter:title')).toBe('Block 4200 · versions 31813–33814 · local ledger · Lantern');
    expect(meta(html, 'twitter:description')).toBe('Block 4200 of the local ledger: 2,002 transactions (versions 31813–33814), in Lantern.');
    for (const key of ['og:image', 'twitter:image']) {
      const image = new URL(meta(html, key)!);
      expect(image.origin, key).toBe(ORIGIN);
      const res = await fetch(app.url + image.pathname + image.search);
      expect(res.status, key).toBe(200);
      expect(res.headers.get('content-type'), key).toBe('image/png');
      expect(pngSize(new Uint8Array(await res.arrayBuffer())), key).toEqual({ width: 1200, height: 630 });
    }
  });

  it('a transaction page names the transaction once, with its description and OpenGraph and Twitter tags', async () => {
    const hash = '0x1fa8c7e71204848d8477f219f038b8328490cff7b5d0bd3e4f85ad35c64b73f5'; // the first spam airdrop of the devnet
    const html = await page(`/tx/${hash}?chain=devnet`);
    expect(html).toContain('<title>Transaction 0x1fa8…73f5 · Lantern</title>');
    expect(meta(html, 'description')).toBe(`Transaction ${hash}: its status, value, fee, transfers, internal calls and logs, in Lantern.`);
    expect(meta(html, 'og:title')).toBe('Transaction 0x1fa8…73f5 · Lantern');
    expect(meta(html, 'og:description')).toBe(`Transaction ${hash}: its status, value, fee, transfers, internal calls and logs, in Lantern.`);
    expect(meta(html, 'twitter:card')).toBe('summary');
    expect(meta(html, 'twitter:title')).toBe('Transaction 0x1fa8…73f5 · Lantern');
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

describe('link previews of a signed-in person', () => {
  const { encodeReply } = createRequire(import.meta.url)('next/dist/compiled/react-server-dom-turbopack/client.node') as {
    encodeReply: (v: unknown) => Promise<FormData | string>;
  };
  function actionId(name: string): string {
    const manifest = JSON.parse(readFileSync(path.resolve('.next/server/server-reference-manifest.json'), 'utf8'));
    const entry = Object.entries(manifest.node as Record<string, { exportedName?: string }>).find(([, v]) => v.exportedName === name);
    if (!entry) throw new Error(`server action ${name} not in the build manifest`);
    return entry[0];
  }
  async function action(name: string, body: BodyInit, cookie?: string) {
    const headers: Record<string, string> = { 'next-action': actionId(name), accept: 'text/x-component', origin: ORIGIN };
    if (typeof body === 'string') headers['content-type'] = 'text/plain;charset=UTF-8';
    if (cookie) headers.cookie = cookie;
    const res = await fetch(app.url + '/', { method: 'POST', headers, body });
    const text = await res.text();
    const line = text.split('\n').find((l) => /^[0-9a-f]+:\{"ok":/.test(l));
    return { status: res.status, value: line ? JSON.parse(line.slice(line.indexOf(':') + 1)) : undefined, setCookie: res.headers.getSetCookie() };
  }

  it('are the same as anyone’s, and never show a private saved label', async () => {
    // Dave signs in with his devnet key, as the page does, and saves Alice under a private label.
    const dave = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 4 });
    const challenge = await action('requestChallengeAction', JSON.stringify([dave.address, 31337]));
    expect(challenge.value).toMatchObject({ ok: true });
    const siwe = challenge.setCookie.find((c) => c.startsWith('lantern_siwe='))!.split(';')[0];
    const message = challenge.value.message as string;
    const verified = await action('verifyChallengeAction', JSON.stringify([message, await dave.signMessage({ message })]), siwe);
    expect(verified.value).toMatchObject({ ok: true });
    const session = verified.setCookie.find((c) => c.startsWith('lantern_session='))!.split(';')[0];
    const form = new FormData();
    form.append('address', ALICE);
    form.append('label', 'Private label of Dave');
    const saved = await action('saveWalletAction', (await encodeReply([null, form])) as FormData, session);
    expect(saved.value).toMatchObject({ ok: true, label: 'Private label of Dave' });

    const signedIn = await page(`/wallet/${ALICE}`, { cookie: session });
    expect(signedIn).toContain('Private label of Dave'); // the page itself shows Dave his label
    const anyone = await page(`/wallet/${ALICE}`);
    expect(anyone).not.toContain('Private label of Dave');
    expect(previewTags(signedIn)).toEqual(previewTags(anyone));
    expect(previewTags(signedIn).title).toBe('Wallet 0x7099…79C8 · Lantern');
    const image = async (cookie?: string) => {
      const res = await fetch(app.url + previewTags(anyone).og.image!, { headers: cookie ? { cookie } : {} });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer()).toString('base64');
    };
    expect(await image(session)).toBe(await image());
  });
});

describe('the home page off the devnets', () => {
  let hosted: LanternInstance;
  beforeAll(async () => {
    // Hosted mode with no DEFAULT_CHAIN: Lantern reads no devnet, so it has no devnet story to tell.
    hosted = await startLantern({ DATA_API_KEY: 'newcomer-test-key', DATA_API_URL: 'http://127.0.0.1:9', AUTH_API_URL: 'http://127.0.0.1:9', PUBLIC_URL: ORIGIN });
  });
  afterAll(() => hosted?.stop());

  it('has no devnet showcase, where the devnet home has one', async () => {
    const devnetHome = await page('/');
    expect(devnetHome).toContain('id="devnet-showcase"');
    expect(devnetHome).toContain('Start here: the devnets’ story');
    const home = await page('/', {}, hosted);
    expect(home).toContain('Read any wallet, and any ledger block.');
    expect(home).not.toContain('devnet-showcase');
    expect(home).not.toContain('the devnets’ story');
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
  /** Asks `/api/health?ready` until it says ready; every answer on the way. */
  async function untilReady(on: LanternInstance) {
    const answers: { status: number; body: unknown; warmedYet: boolean }[] = [];
    for (let i = 0; i < 1200; i++) {
      const warmedYet = on.output().includes('Lantern warmed up');
      const res = await fetch(`${on.url}/api/health?ready`);
      answers.push({ status: res.status, body: await res.json(), warmedYet });
      if (res.status === 200) return answers;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`not ready within 60 s:\n${on.output()}`);
  }

  it('listens before the warm-up, and is ready once every route is loaded', async () => {
    await untilReady(app);
    const out = app.output();
    const listening = out.indexOf('Lantern listening');
    const warmed = out.indexOf('Lantern warmed up');
    expect(listening).toBeGreaterThan(-1);
    expect(warmed).toBeGreaterThan(listening);
    expect(out).not.toContain('warm-up: ');
  });

  it('accepts requests while warming up and serves them; /api/health?ready is 503 until warm, then 200', async () => {
    const launched = performance.now();
    const fresh = await startLantern({ DEVNET_EVM_PORT: String(inject('evmPort')), DEVNET_LEDGER_PORT: String(inject('ledgerPort')), PUBLIC_URL: ORIGIN, LANTERN_WARM_UP: 'on' });
    try {
      const upMs = Math.round(performance.now() - launched);
      // Listening, not warm yet: not ready (the warm-up loads ~30 routes, seconds on any machine).
      const first = await fetch(`${fresh.url}/api/health?ready`);
      expect([first.status, await first.json(), fresh.output().includes('Lantern warmed up')]).toEqual([503, { ready: false, reason: 'warming_up' }, false]);
      // A real request during the warm-up is served, not queued behind it.
      const during = performance.now();
      const served = await fetch(`${fresh.url}/api/v2.2/wallets/${ALICE}/history?chain=devnet&limit=1`);
      const servedMs = Math.round(performance.now() - during);
      const warmDuring = fresh.output().includes('Lantern warmed up');
      expect(served.status).toBe(200);
      const answers = await untilReady(fresh);
      // Not ready until the warm-up said it was done; then ready.
      for (const a of answers.slice(0, -1)) expect([a.status, a.body]).toEqual([503, { ready: false, reason: 'warming_up' }]);
      expect(answers.at(-1)).toMatchObject({ status: 200, body: { ready: true } });
      // Liveness (plain health) answers throughout.
      expect((await fetch(`${fresh.url}/api/health`)).status).toBe(200);
      const warmed = /Lantern warmed up in (\d+) ms/.exec(fresh.output())?.[1];
      console.log(`start-up: launch to answering ${upMs} ms (a loaded machine: node, Next and start-up); a history request during the warm-up ${servedMs} ms (warm-up done by then: ${warmDuring}); warm-up ${warmed} ms behind it`);
    } finally {
      await fresh.stop();
    }
  });
});
