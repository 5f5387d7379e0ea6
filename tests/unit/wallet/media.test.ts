import { describe, expect, it } from 'vitest';
import { MAX_DATA_URI_CHARS, parseMetadata, resolveMediaUrl, resolveNftMedia, safeExternalLink, safeText } from '@/lib/view/nft-media';

const gw = { ipfs: 'https://gateway.example/ipfs/', arweave: 'https://ar.example' };

describe('resolveMediaUrl', () => {
  it('passes http(s) URLs', () => {
    expect(resolveMediaUrl('https://cdn.example/a.png', gw)).toBe('https://cdn.example/a.png');
    expect(resolveMediaUrl('http://cdn.example/a', gw)).toBe('http://cdn.example/a');
  });
  it('routes ipfs:// and ar:// through the configured gateways', () => {
    expect(resolveMediaUrl('ipfs://QmHash/1.png', gw)).toBe('https://gateway.example/ipfs/QmHash/1.png');
    expect(resolveMediaUrl('ipfs://ipfs/QmHash', gw)).toBe('https://gateway.example/ipfs/QmHash');
    expect(resolveMediaUrl('ar://abcDEF', gw)).toBe('https://ar.example/abcDEF');
    expect(resolveMediaUrl('ipfs://QmHash/a b.png', gw)).toBe('https://gateway.example/ipfs/QmHash/a%20b.png');
  });
  it('accepts data: URIs for images only', () => {
    expect(resolveMediaUrl('data:image/png;base64,iVBOR', gw)).toBe('data:image/png;base64,iVBOR');
    expect(resolveMediaUrl('data:image/svg+xml;base64,PHN2Zz4=', gw)).toBe('data:image/svg+xml;base64,PHN2Zz4=');
    expect(resolveMediaUrl('data:image/gif,GIF89a', gw)).toBe('data:image/gif,GIF89a');
    expect(resolveMediaUrl('data:text/html,<script>alert(1)</script>', gw)).toBeNull();
    expect(resolveMediaUrl('data:application/json;base64,e30=', gw)).toBeNull();
    expect(resolveMediaUrl('data:image/svg+xml', gw)).toBeNull();
  });
  it('drops oversized data: URIs', () => {
    expect(resolveMediaUrl(`data:image/png;base64,${'A'.repeat(MAX_DATA_URI_CHARS)}`, gw)).toBeNull();
  });
  it('drops scripts, files, blobs, relative paths and credentials', () => {
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java\nscript:alert(1)', 'vbscript:x', 'file:///etc/passwd', 'blob:https://x/1', '/relative.png', 'https://user:pw@host/a.png', '', null, 42, {}]) {
      expect(resolveMediaUrl(bad, gw)).toBeNull();
    }
  });
});

describe('safeExternalLink', () => {
  it('keeps http(s) links only', () => {
    expect(safeExternalLink('https://project.example')).toBe('https://project.example/');
    expect(safeExternalLink('javascript:alert(1)')).toBeNull();
    expect(safeExternalLink('data:text/html,hi')).toBeNull();
    expect(safeExternalLink('java\tscript:alert(1)')).toBeNull();
  });
});

describe('parseMetadata and safeText', () => {
  it('returns null for invalid or non-object JSON', () => {
    expect(parseMetadata('{"name": "Broken')).toBeNull();
    expect(parseMetadata('[1,2]')).toBeNull();
    expect(parseMetadata('"str"')).toBeNull();
    expect(parseMetadata('{"name":"ok"}')).toEqual({ name: 'ok' });
  });
  it('refuses metadata too large to be worth parsing', () => {
    expect(parseMetadata(`{"name":"${'x'.repeat(200_000)}"}`)).toBeNull();
  });
  it('cuts text and strips control and bidi-override characters', () => {
    expect(safeText('a\u202Eb\u0000c', 10)).toBe('abc');
    expect(safeText('x'.repeat(20), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(safeText({}, 10)).toBeNull();
  });
});

describe('resolveNftMedia on hostile metadata', () => {
  const base = { token_address: '0x6666666666666666666666666666666666666666', token_id: '1', name: 'Hostile' };
  it('keeps an SVG with a script only as an <img>-safe data: URI', () => {
    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg><script>alert(1)</script></svg>').toString('base64')}`;
    const m = resolveNftMedia({ ...base, normalized_metadata: { name: '<b>x</b>', image: svg, external_link: 'javascript:alert(1)' } }, gw);
    expect(m.image).toBe(svg);
    expect(m.externalLink).toBeNull();
    expect(m.name).toBe('<b>x</b>'); // rendered as text by React, never as HTML
  });
  it('turns raw SVG markup (image_data) into a data: URI for <img>, never markup', () => {
    const m = resolveNftMedia({ ...base, metadata: JSON.stringify({ image_data: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' }) }, gw);
    expect(m.image).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
  });
  it('falls back to the collection name and id for invalid JSON', () => {
    const m = resolveNftMedia({ ...base, token_id: '3', metadata: '{"name": "Broken JSON", "image": ' }, gw);
    expect(m).toEqual({ image: null, name: 'Hostile #3', description: null, externalLink: null });
  });
  it('prefers provider previews, then normalised metadata, then raw metadata', () => {
    const media = { status: 'success', media_collection: { medium: { url: 'https://preview.example/m.png' } } };
    expect(resolveNftMedia({ ...base, media, normalized_metadata: { image: 'https://orig.example/a.png' } }, gw).image).toBe('https://preview.example/m.png');
    expect(resolveNftMedia({ ...base, media: { status: 'processing' }, normalized_metadata: { image: 'ipfs://QmX' } }, gw).image).toBe('https://gateway.example/ipfs/QmX');
    expect(resolveNftMedia({ ...base, metadata: JSON.stringify({ image_url: 'ar://tx1' }) }, gw).image).toBe('https://ar.example/tx1');
  });
  it('skips a javascript: image and uses the next safe candidate', () => {
    const m = resolveNftMedia({ ...base, normalized_metadata: { image: 'javascript:alert(1)' }, metadata: JSON.stringify({ image_url: 'https://ok.example/i.png' }) }, gw);
    expect(m.image).toBe('https://ok.example/i.png');
  });
});
