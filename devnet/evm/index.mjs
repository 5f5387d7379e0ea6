// The embedded EVM devnet: anvil brought to the seeded scenario, fast.
//
// First start (or after any change to the contracts, the scenario, the seed or the anvil version):
// seed a fresh anvil (~3 s), let anvil dump its state on exit, and keep the state file and the
// manifest under .data/devnet/ keyed by a hash of those inputs. Every start then serves anvil
// --load-state of that file (~1 s). The dump keeps historical states, so blocks, receipts, logs,
// ots_* and debug_traceTransaction all work on the seeded transactions after loading.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { anvilVersion, resolveAnvilBinary, spawnAnvil } from './anvil.mjs';
import { rpcClient } from './rpc.mjs';
import { ANVIL_ARGS, seed, stringifyManifest } from './seed.mjs';
import { CHAIN_ID } from './scenario.mjs';

export { seedSyntheticWallet } from './synthetic.mjs';
export { ANVIL_ARGS } from './seed.mjs';
export { CHAIN_ID, MNEMONIC, ACCOUNTS, FAR_LANTERNS_CID, FAR_LANTERN_URIS, prng } from './scenario.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

/** The committed manifest (devnet/evm/scenario.json), parsed. */
export function loadManifest() {
  return JSON.parse(readFileSync(path.join(here, 'scenario.json'), 'utf8'));
}

/** Every manifest transaction in which `address` takes part (what its wallet history must return). */
export function transactionsTouching(manifest, address) {
  const a = address.toLowerCase();
  return manifest.transactions.filter((t) => t.parties.includes(a));
}

/** Hash of everything the seeded state depends on. */
export function stateKey() {
  const h = createHash('sha256');
  const files = [
    ...readdirSync(path.join(here, 'contracts')).sort().map((f) => path.join('contracts', f)),
    ...readdirSync(path.join(here, 'artifacts')).sort().map((f) => path.join('artifacts', f)),
    'scenario.mjs', 'holdings.mjs', 'seed.mjs', 'rpc.mjs',
  ];
  for (const f of files) h.update(f).update('\0').update(readFileSync(path.join(here, f))).update('\0');
  h.update(JSON.stringify(ANVIL_ARGS)).update(anvilVersion(resolveAnvilBinary()));
  return h.digest('hex').slice(0, 16);
}

/**
 * Starts anvil on host:port with the seeded scenario.
 * @param {{ port?: number, host?: string, log?: (line: string) => void, cacheDir?: string, fresh?: boolean }} [o]
 *   cacheDir: where state files live (default DEVNET_CACHE_DIR or <repo>/.data/devnet);
 *   fresh: ignore and rebuild the cached state.
 * @returns {Promise<{ url: string, chainId: 31337, stop: () => Promise<void>, manifest: object,
 *   pid: number, warm: boolean, startupMs: number }>}
 */
export async function startEvmDevnet({ port = 8545, host = '127.0.0.1', log, cacheDir, fresh = false } = {}) {
  const t0 = Date.now();
  const say = (m) => log?.(`[devnet-evm] ${m}`);
  const dir = path.resolve(cacheDir ?? process.env.DEVNET_CACHE_DIR ?? path.join(repoRoot, '.data', 'devnet'));
  mkdirSync(dir, { recursive: true });
  const key = stateKey();
  const stateFile = path.join(dir, `evm-${key}.state.json`);
  const manifestFile = path.join(dir, `evm-${key}.manifest.json`);

  let warm = !fresh && existsSync(stateFile) && existsSync(manifestFile);
  if (warm) {
    const started = await loadAndCheck({ port, host, log, stateFile, manifestFile });
    if (started) return finish(started, true);
    say('cached state did not match its manifest; seeding again');
    warm = false;
  }

  say(`seeding a fresh chain (state key ${key})`);
  const tmp = path.join(dir, `.evm-${key}-${process.pid}-${randomBytes(4).toString('hex')}.json`);
  const seeder = await spawnAnvil({ port, host, log, args: [...ANVIL_ARGS, '--dump-state', tmp] });
  let manifest;
  try {
    manifest = await seed({ rpcUrl: seeder.url, log: say });
  } catch (e) {
    await seeder.stop();
    rmSync(tmp, { force: true });
    throw e;
  }
  await seeder.stop(); // anvil writes the state file on exit
  if (!existsSync(tmp)) throw new Error(`anvil did not write its state to ${tmp}`);
  writeFileSync(`${manifestFile}.tmp`, stringifyManifest(manifest));
  renameSync(`${manifestFile}.tmp`, manifestFile);
  renameSync(tmp, stateFile);
  // Older keys' state files are large (tens of MB): keep only the current one. Also drop
  // half-written dumps that a killed seeding run left behind.
  for (const f of readdirSync(dir)) {
    const p = path.join(dir, f);
    if (/^evm-[0-9a-f]{16}\.(state|manifest)\.json$/.test(f) && !f.startsWith(`evm-${key}.`)) rmSync(p, { force: true });
    else if (f.startsWith('.evm-') && Date.now() - statSync(p).mtimeMs > 15 * 60_000) rmSync(p, { force: true });
  }
  const started = await loadAndCheck({ port, host, log, stateFile, manifestFile });
  if (!started) throw new Error('the freshly dumped devnet state does not load back to the seeded chain');
  return finish(started, false);

  function finish(s, isWarm) {
    const startupMs = Date.now() - t0;
    say(`${isWarm ? 'loaded cached' : 'seeded'} devnet on ${s.url} in ${startupMs} ms`);
    return { url: s.url, chainId: CHAIN_ID, stop: s.stop, manifest: s.manifest, pid: s.pid, warm: isWarm, startupMs };
  }
}

/**
 * The served node's flags: the seed's, minus --timestamp. With it, anvil's clock restarts at the
 * genesis time after --load-state and the next block would be dated 2026-01-01, before the seeded
 * blocks; without it the clock is the wall clock (and we move it past the last seeded block if needed).
 */
function servingArgs() {
  const args = [...ANVIL_ARGS];
  const i = args.indexOf('--timestamp');
  if (i >= 0) args.splice(i, 2);
  return args;
}

async function loadAndCheck({ port, host, log, stateFile, manifestFile }) {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const node = await spawnAnvil({ port, host, log, args: [...servingArgs(), '--load-state', stateFile] });
  try {
    const rpc = rpcClient(node.url);
    const last = manifest.transactions[manifest.transactions.length - 1];
    const [head, receipt] = await rpc.batch([['eth_blockNumber'], ['eth_getTransactionReceipt', [last.hash]]]);
    if (Number(head) === manifest.stats.lastBlock && receipt?.blockHash === last.blockHash) {
      // Blocks mined later (tests, benchmarks) must never be dated before the seeded history.
      if (Math.floor(Date.now() / 1000) <= manifest.stats.lastTimestamp) {
        await rpc.call('evm_setTime', [manifest.stats.lastTimestamp + 60]);
      }
      return { url: node.url, pid: node.pid, stop: node.stop, manifest };
    }
  } catch (e) {
    log?.(`[devnet-evm] check of the loaded state failed: ${e.message}`);
  }
  await node.stop();
  return null;
}
