#!/usr/bin/env node
// Draws Lantern's icons into public/ from one SVG (run again after changing it; the outputs are committed).
// Uses sharp (installed with Next.js) for the raster sizes; the .ico holds PNG images, as every browser reads.
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';

const ACCENT = '#16537e'; // tailwind.config.ts palette.light.accent
const PAPER = '#faf9f6'; // palette.light.canvas
const FLAME = '#f0a020';

/** The mark: a lantern with a flame, on a rounded square (or a full square with padding for maskable). */
function svg({ maskable = false } = {}) {
  const bg = maskable
    ? `<rect width="64" height="64" fill="${ACCENT}"/>`
    : `<rect width="64" height="64" rx="14" fill="${ACCENT}"/>`;
  const s = maskable ? 'translate(9.6 9.6) scale(0.7)' : 'translate(0 0)';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">
  ${bg}
  <g transform="${s}">
    <path d="M24 12h16M32 8v4" stroke="${PAPER}" stroke-width="3" stroke-linecap="round" fill="none"/>
    <rect x="18" y="14" width="28" height="38" rx="6" fill="none" stroke="${PAPER}" stroke-width="3.5"/>
    <path d="M32 23c4 5 6 8 6 12a6 6 0 0 1-12 0c0-4 2-7 6-12z" fill="${FLAME}"/>
    <path d="M22 56h20" stroke="${PAPER}" stroke-width="3.5" stroke-linecap="round"/>
  </g>
</svg>
`;
}

const icon = svg();
writeFileSync('public/icon.svg', icon);
const png = (s, size) => sharp(Buffer.from(s), { density: 72 * (size / 64) * 2 }).resize(size, size).png({ compressionLevel: 9 }).toBuffer();

writeFileSync('public/apple-touch-icon.png', await png(svg({ maskable: true }), 180));
writeFileSync('public/icon-192.png', await png(icon, 192));
writeFileSync('public/icon-512.png', await png(icon, 512));
writeFileSync('public/icon-maskable-512.png', await png(svg({ maskable: true }), 512));

// ICO container with PNG entries (16, 32, 48).
const sizes = [16, 32, 48];
const images = await Promise.all(sizes.map((n) => png(icon, n)));
const header = Buffer.alloc(6 + 16 * sizes.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(sizes.length, 4);
let offset = header.length;
sizes.forEach((n, i) => {
  const e = 6 + 16 * i;
  header.writeUInt8(n, e);
  header.writeUInt8(n, e + 1);
  header.writeUInt16LE(1, e + 4); // planes
  header.writeUInt16LE(32, e + 6); // bits per pixel
  header.writeUInt32LE(images[i].length, e + 8);
  header.writeUInt32LE(offset, e + 12);
  offset += images[i].length;
});
writeFileSync('public/favicon.ico', Buffer.concat([header, ...images]));
console.log('wrote public/icon.svg, favicon.ico, apple-touch-icon.png, icon-192.png, icon-512.png, icon-maskable-512.png');
