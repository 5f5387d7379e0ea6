import { ImageResponse } from 'next/og';

/** Link-preview images: 1200x630 PNG, drawn with next/og's bundled font (no network at render time). */
export const PREVIEW_SIZE = { width: 1200, height: 630 };

const PAPER = '#faf9f6';
const INK = '#1c1e21';
const MUTED = '#5c6066';
const ACCENT = '#16537e';

export function previewCard({ kicker, title, lines }: { kicker: string; title: string; lines: string[] }): ImageResponse {
  return new ImageResponse(
    (
      <div style={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', background: PAPER, padding: 72, color: INK }}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 20, fontSize: 36, color: ACCENT, fontWeight: 700 }}>
          <div style={{ width: 56, height: 56, borderRadius: 12, background: ACCENT, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            <div style={{ width: 18, height: 26, borderRadius: 9, background: '#f0a020' }} />
          </div>
          Lantern
        </div>
        <div style={{ display: 'flex', marginTop: 64, fontSize: 32, color: MUTED, textTransform: 'uppercase', letterSpacing: 2 }}>{kicker}</div>
        <div style={{ display: 'flex', marginTop: 12, fontSize: title.length > 30 ? 44 : 72, fontWeight: 700, wordBreak: 'break-all' }}>{title}</div>
        <div style={{ display: 'flex', flexDirection: 'column', marginTop: 'auto', fontSize: 32, color: MUTED, gap: 8 }}>
          {lines.map((l) => (
            <div key={l} style={{ display: 'flex' }}>
              {l}
            </div>
          ))}
        </div>
        <div style={{ position: 'absolute', left: 0, bottom: 0, width: '100%', height: 12, background: ACCENT, display: 'flex' }} />
      </div>
    ),
    PREVIEW_SIZE,
  );
}
