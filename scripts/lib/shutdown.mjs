// One way for the long-running scripts (dev, devnet, e2e server) to end: Ctrl-C, a kill, or a child
// dying all run the cleanup exactly once, then exit, so no process is left behind.

/**
 * Registers SIGINT, SIGTERM and SIGHUP; returns `stop(code)` for other reasons to end.
 * @param {() => Promise<void>} cleanup
 * @returns {(code?: number) => Promise<void>}
 */
export function shutdownOnce(cleanup) {
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    await cleanup();
    process.exit(code);
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => stop(0));
  return stop;
}

/**
 * Runs the work the server's own modules registered to finish before exit (lib/lifecycle.ts: live streams
 * ended, leases released), waiting at most `limitMs`. For scripts/server.mjs, whose process holds Next.
 * @param {number} [limitMs]
 */
export async function runServerShutdownHooks(limitMs = 2000) {
  const hooks = globalThis[Symbol.for('lantern.shutdown')] ?? [];
  let timer;
  await Promise.race([
    Promise.allSettled(hooks.map((hook) => hook())),
    new Promise((resolve) => {
      timer = setTimeout(resolve, limitMs);
    }),
  ]);
  clearTimeout(timer);
}
