#!/usr/bin/env node
// Generates the decoder's data from ABIs on disk (run again after changing a source package or a devnet
// contract; the outputs are committed and a unit test checks they are current):
//
// - lib/decode/data/signatures.json: every function selector and event topic of the ABIs of well-known
//   audited packages (devDependencies, exact versions), with parameter names and, for events, which
//   parameters are indexed (events with one topic but other indexing are separate entries). Each entry
//   names the package it came from; the packages and their versions are listed in `sources`.
// - lib/decode/data/devnet-contracts.json: the devnet's compiled contracts (devnet/evm/artifacts): their
//   ABIs and how to recognise their runtime code, so lib/ knows them without reading devnet/ at run time.
//
// Run: npm run signatures   (`--check` only compares and exits 1 when the committed files are stale)
import { readFileSync, readdirSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { keccak256, parseAbiItem, toEventSelector, toFunctionSelector } from 'viem';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const OUT_DIR = path.join(root, 'lib/decode/data');

/** Test, mock and script contracts are no part of a package's deployed interface. */
const NOT_SHIPPED = /(^|\/)(test|tests|mocks?|script|scripts|echidna|fuzz|forge-std|ds-test)(\/|$)|(^|\/)[^/]*(Mock|Test|Harness|Fake|Dummy|Echidna|Fuzzer)[^/]*$|\.(t|s)\.sol(\/|$)/i;

/**
 * The packages, in order of preference: where two packages name the same function or event (same
 * types, same indexing), the first one's parameter names are kept.
 */
const SOURCES = [
  { pkg: '@openzeppelin/contracts', what: 'tokens, access, governance, proxies, accounts', files: ['build/contracts'] },
  { pkg: '@uniswap/v2-core', what: 'Uniswap v2 factory and pairs', files: ['build'], skip: /Combined-Json/ },
  { pkg: '@uniswap/v2-periphery', what: 'Uniswap v2 routers, WETH9', files: ['build'] },
  { pkg: '@uniswap/v3-core', what: 'Uniswap v3 factory and pools', files: ['artifacts/contracts'] },
  { pkg: '@uniswap/v3-periphery', what: 'Uniswap v3 routers, positions, quoters', files: ['artifacts/contracts'] },
  { pkg: '@uniswap/v4-core', what: 'Uniswap v4 pool manager', files: ['out'], foundry: 'src/' },
  { pkg: '@uniswap/v4-periphery', what: 'Uniswap v4 position manager, router, quoter', files: ['foundry-out'], foundry: 'src/' },
  { pkg: '@uniswap/universal-router', what: 'Uniswap universal router', files: ['artifacts/contracts'] },
  { pkg: '@uniswap/permit2-sdk', what: 'Permit2', files: ['dist/cjs/abis'] },
  { pkg: '@safe-global/safe-deployments', what: 'Safe singletons, proxy factory, libraries, handlers', files: ['dist/assets'] },
  { pkg: '@safe-global/safe-contracts', what: 'Safe contracts', files: ['build/artifacts/contracts'] },
  { pkg: '@account-abstraction/contracts', what: 'ERC-4337 EntryPoint, accounts, paymasters', files: ['artifacts'] },
  { pkg: '@opensea/seaport-js', what: 'Seaport', modules: [['lib/abi/Seaport.js', 'SeaportABI']] },
  { pkg: '@aave/core-v3', what: 'Aave v3 pool, tokens, configurator', files: ['artifacts/contracts'] },
  { pkg: '@chainlink/contracts', what: 'Chainlink feeds, VRF, automation, CCIP', files: ['abi/v0.8'] },
  { pkg: '@ensdomains/ens', what: 'ENS registry and registrars', files: ['build/contracts'] },
  { pkg: '@ensdomains/resolver', what: 'ENS resolvers', files: ['build/contracts'] },
];

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.json') && !name.endsWith('.dbg.json')) out.push(p);
  }
  return out;
}

/** ABIs of one package: [contract label, abi] for every shipped contract. */
/** A package's folder (its exports may not list package.json). */
const packageDir = (pkg) => path.join(root, 'node_modules', pkg);

function packageAbis(src) {
  const base = packageDir(src.pkg);
  const out = [];
  for (const [file, name] of src.modules ?? []) {
    const abi = require(path.join(base, file))[name];
    out.push([name, abi]);
  }
  for (const rel of src.files ?? []) {
    for (const file of walk(path.join(base, rel))) {
      const relFile = path.relative(base, file);
      if (src.skip?.test(relFile) || NOT_SHIPPED.test(relFile)) continue;
      let json;
      try {
        json = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        continue;
      }
      const abi = Array.isArray(json) ? json : json.abi;
      if (!Array.isArray(abi)) continue;
      // Foundry output holds every compiled file (tests, forge-std): keep the package's own sources.
      if (src.foundry) {
        const target = Object.keys(json.metadata?.settings?.compilationTarget ?? {})[0] ?? '';
        if (!target.startsWith(src.foundry) || NOT_SHIPPED.test(target)) continue;
      }
      if (json.sourceName && NOT_SHIPPED.test(json.sourceName)) continue;
      out.push([relFile, abi]);
    }
  }
  return out;
}

const NAME = /^[a-zA-Z$_][a-zA-Z0-9$_]*$/;

/** One parameter in the table's notation: `type[ indexed][ name]`, tuples inline as `(...)`. */
function param(p, keepNames) {
  const type = p.type.startsWith('tuple') ? `(${p.components.map((c) => param(c, keepNames)).join(',')})${p.type.slice(5)}` : p.type;
  const name = keepNames && p.name && NAME.test(p.name) ? ` ${p.name}` : '';
  return `${type}${p.indexed ? ' indexed' : ''}${name}`;
}

function canonicalType(p) {
  return p.type.startsWith('tuple') ? `(${p.components.map(canonicalType).join(',')})${p.type.slice(5)}` : p.type;
}

/**
 * The entry for an ABI item, checked by parsing it back: a name the human-readable notation reserves
 * (`bytes`, `memory`, ...) drops that item's names rather than the item.
 */
function entry(item) {
  for (const keepNames of [true, false]) {
    const text = `${item.name}(${item.inputs.map((p) => param(p, keepNames)).join(',')})`;
    try {
      const parsed = parseAbiItem(`${item.type} ${text}`);
      const canonical = `${item.name}(${item.inputs.map(canonicalType).join(',')})`;
      const hash = item.type === 'function' ? toFunctionSelector(parsed) : toEventSelector(parsed);
      if (hash !== (item.type === 'function' ? toFunctionSelector(canonical) : toEventSelector(canonical))) throw new Error('hash differs');
      return { text, hash, key: `${canonical}|${item.inputs.map((p) => (p.indexed ? 1 : 0)).join('')}` };
    } catch {
      // try again without names
    }
  }
  return null; // not ABI types (a library's enum or struct by name): no call or log carries it
}

function pkgVersion(pkg) {
  return JSON.parse(readFileSync(path.join(packageDir(pkg), 'package.json'), 'utf8')).version;
}

export function buildSignatures() {
  const functions = new Map();
  const events = new Map();
  const seen = new Set();
  const sources = [];
  SOURCES.forEach((src, index) => {
    const abis = packageAbis(src);
    let fn = 0;
    let ev = 0;
    for (const [, abi] of abis) {
      for (const item of abi) {
        if ((item.type !== 'function' && item.type !== 'event') || !item.name || item.anonymous) continue;
        const e = entry(item);
        if (!e) continue;
        const key = `${item.type}:${e.key}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const table = item.type === 'function' ? functions : events;
        const hash = e.hash.slice(2);
        if (!table.has(hash)) table.set(hash, []);
        table.get(hash).push(`${index}|${e.text}`);
        if (item.type === 'function') fn++;
        else ev++;
      }
    }
    sources.push({ package: src.pkg, version: pkgVersion(src.pkg), what: src.what, contracts: abis.length, functions: fn, events: ev });
  });
  const sorted = (m) => Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)));
  return { version: 1, generatedBy: 'npm run signatures', sources, functions: sorted(functions), events: sorted(events) };
}

// --- the devnet's contracts ---------------------------------------------------------------------

/**
 * Byte offsets of PUSH32 arguments that are all zero in compiled runtime code: where solc leaves room for
 * immutables, filled in at deployment. Runtime code is recognised with those 32-byte windows masked.
 */
export function immutableWindows(code) {
  const bytes = Buffer.from(code.slice(2), 'hex');
  const out = [];
  for (let i = 0; i < bytes.length; i++) {
    const op = bytes[i];
    if (op >= 0x60 && op <= 0x7f) {
      const n = op - 0x5f;
      if (op === 0x7f && i + 32 < bytes.length + 1 && bytes.subarray(i + 1, i + 33).every((b) => b === 0)) out.push(i + 1);
      i += n;
    }
  }
  return out;
}

export function buildDevnetContracts() {
  const dir = path.join(root, 'devnet/evm/artifacts');
  const contracts = [];
  for (const file of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const a = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    const abi = a.abi.filter((i) => (i.type === 'function' || i.type === 'event') && i.name).map((i) => `${i.type} ${entry(i)?.text}`);
    const code = a.deployedBytecode.toLowerCase();
    contracts.push({ name: a.contractName, abi, codeLength: (code.length - 2) / 2, codeHash: keccak256(code), immutables: immutableWindows(code) });
  }
  return { version: 1, generatedBy: 'npm run signatures', from: 'devnet/evm/artifacts', contracts };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const check = process.argv.includes('--check');
  const t0 = Date.now();
  const outputs = [
    ['signatures.json', buildSignatures()],
    ['devnet-contracts.json', buildDevnetContracts()],
  ];
  let stale = 0;
  mkdirSync(OUT_DIR, { recursive: true });
  for (const [name, data] of outputs) {
    const file = path.join(OUT_DIR, name);
    const text = `${JSON.stringify(data)}\n`;
    let old = '';
    try {
      old = readFileSync(file, 'utf8');
    } catch {
      // first run
    }
    if (old === text) continue;
    stale++;
    if (!check) writeFileSync(file, text);
    console.log(`${check ? 'stale' : 'wrote'} ${path.relative(root, file)} (${(text.length / 1024).toFixed(0)} KiB)`);
  }
  const sig = outputs[0][1];
  console.log(
    `${Object.keys(sig.functions).length} selectors, ${Object.keys(sig.events).length} event topics from ${sig.sources.length} packages; ` +
      `${outputs[1][1].contracts.length} devnet contracts (${Date.now() - t0} ms)`,
  );
  if (check && stale) {
    console.log('run `npm run signatures` and commit the result');
    process.exit(1);
  }
}
