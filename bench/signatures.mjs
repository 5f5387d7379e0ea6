// The shipped signature table (lib/decode/data/signatures.json): its size on disk and gzipped, and how
// long a server process takes to load it (read + JSON.parse, as the decoder's first use does), beside
// the floor of reading the same bytes without parsing them, and the cost of parsing every entry into an
// ABI item (the decoder parses only the entries a selector asks for, on first use). Each figure is the
// median of fresh node processes, so nothing is warm.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { median } from './stats.mjs';

const FILE = 'lib/decode/data/signatures.json';

const PROBE = `
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
const t0 = performance.now();
const bytes = readFileSync(${JSON.stringify(FILE)});
const t1 = performance.now();
const table = JSON.parse(bytes.toString('utf8'));
const t2 = performance.now();
const { parseAbiItem } = await import('viem');
const t3 = performance.now();
let n = 0;
for (const [kind, map] of [['function', table.functions], ['event', table.events]]) {
  for (const list of Object.values(map)) for (const e of list) { parseAbiItem(kind + ' ' + e.slice(e.indexOf('|') + 1)); n++; }
}
const t4 = performance.now();
console.log(JSON.stringify({ read: t1 - t0, load: t2 - t0, parseAll: t4 - t3, entries: n }));
`;

export async function benchSignatures() {
  const runs = [];
  for (let i = 0; i < 7; i++) runs.push(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', PROBE], { encoding: 'utf8' })));
  const table = JSON.parse(readFileSync(FILE, 'utf8'));
  const figures = {
    file: FILE,
    size_kib: Math.round(statSync(FILE).size / 102.4) / 10,
    gzip_kib: Math.round(gzipSync(readFileSync(FILE)).length / 102.4) / 10,
    selectors: Object.keys(table.functions).length,
    event_topics: Object.keys(table.events).length,
    packages: table.sources.length,
    load_ms_p50: Math.round(median(runs.map((r) => r.load)) * 10) / 10,
    floor_read_ms_p50: Math.round(median(runs.map((r) => r.read)) * 10) / 10,
    parse_every_entry_ms_p50: Math.round(median(runs.map((r) => r.parseAll))),
    entries: runs[0].entries,
  };
  console.log(
    `signature table: ${figures.size_kib} KiB on disk (${figures.gzip_kib} KiB gzip), ${figures.selectors} selectors + ${figures.event_topics} topics from ${figures.packages} packages; ` +
      `load ${figures.load_ms_p50} ms p50 (floor: reading the bytes, ${figures.floor_read_ms_p50} ms); parsing all ${figures.entries} entries ${figures.parse_every_entry_ms_p50} ms (done lazily per selector)`,
  );
  return figures;
}

if (process.argv[1] && process.argv[1].endsWith('signatures.mjs')) await benchSignatures();
