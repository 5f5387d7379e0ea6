import 'server-only';
import { config, ConfigError, isBuildPhase } from './config';

const DB_OPEN_LIMIT_MS = 15_000;
/** How long start-up waits for each EVM node to say its chain: a node that refuses connections answers at once. */
const NODE_CHECK_MS = 3_000;

/**
 * Runs once as a server instance starts (instrumentation.ts); `npm start` listens once it resolves. A bad
 * configuration or an EVM node serving the wrong chain stops start-up here, naming the variable: the only
 * checks that may keep a server from listening. The rest runs behind it (see `behindListening`).
 */
export async function startup() {
  try {
    config();
  } catch (e) {
    if (e instanceof ConfigError) {
      // The logger needs a valid configuration (its level): say what is wrong on stderr as it is.
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  if (isBuildPhase()) return; // `next build` loads this too; no database there

  const { log } = await import('./log');
  // Each EVM node must serve the chain it is named for, one node per chain: otherwise the server does not
  // start (the message names the variable and the host, never the URL). A node that does not answer is
  // logged and checked again on first use.
  const { checkChainNodes } = await import('./operations/chains');
  const nodes = await checkChainNodes(NODE_CHECK_MS);
  if (nodes.refused.length > 0) {
    process.stderr.write(`Lantern's configuration is invalid:\n${nodes.refused.map((r) => `  ${r}`).join('\n')}\n`);
    process.exit(1);
  }
  if (nodes.unreachable.length > 0) log().warn({ nodes: nodes.unreachable }, 'EVM nodes not answering at start-up');

  void behindListening(log);
}

/**
 * The work every first request would otherwise pay for: opening the database and applying migrations
 * (seconds for a fresh embedded database), live pages' hub, and a look at every source. None of it may
 * keep the server from listening: a request that needs the database meanwhile waits for the same opening,
 * and `/api/health?ready` says not ready until the database answers. A source that is down is logged by
 * name, and pages say so when asked.
 */
async function behindListening(log: typeof import('./log').log) {
  const started = performance.now();
  try {
    const { db } = await import('./db');
    const open = db().then((d) => d.query('SELECT 1').then(() => d.kind));
    const kind = await Promise.race([
      open,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not open after ${DB_OPEN_LIMIT_MS} ms`)), DB_OPEN_LIMIT_MS).unref()),
    ]);
    log().info({ database: kind, ms: Math.round(performance.now() - started) }, 'database open, migrations applied');
  } catch (e) {
    // Requests will try again and answer 503 meanwhile; the instance stays up so health can say why.
    log().warn({ err: (e as Error).message }, 'database not open at start-up');
  }

  // Live pages: this instance's hub (its streams, and its part in following chains: lib/live).
  try {
    const [{ liveHub, stopLive }, { onShutdown }] = await Promise.all([import('./live'), import('./lifecycle')]);
    liveHub();
    onShutdown(stopLive);
  } catch (e) {
    log().warn({ err: (e as Error).message }, 'live pages could not start');
  }

  void import('./operations/health')
    .then(({ health }) => health())
    .then((h) => {
      const { evm_nodes: nodes = {}, describe: _describe, ...others } = h.sources as Record<string, unknown> & { evm_nodes?: Record<string, { ok: boolean }> };
      const checks: [string, unknown][] = [...Object.entries(nodes).map(([chain, p]): [string, unknown] => [`evm_node:${chain}`, p]), ...Object.entries(others)];
      const down = checks.filter(([, v]) => typeof v === 'object' && v !== null && 'ok' in v && !(v as { ok: boolean }).ok).map(([k]) => k);
      if (down.length) log().warn({ sources: down }, 'sources unreachable at start-up');
      else log().info('every source reachable at start-up');
    })
    .catch((e) => log().warn({ err: (e as Error).message }, 'source check at start-up failed'));
}
