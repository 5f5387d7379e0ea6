import 'server-only';

/**
 * Work to finish before the process exits: registered here by the server's own modules, run by
 * scripts/server.mjs when it is told to stop (SIGTERM, SIGINT), before it closes its listening socket, so
 * long-lived responses (live streams) end cleanly instead of holding the close open. A symbol on
 * globalThis is the one thing the plain-JS server and the bundled server code both see.
 */
const HOOKS = Symbol.for('lantern.shutdown');

type Hook = () => Promise<void>;

export function onShutdown(hook: Hook): void {
  const g = globalThis as unknown as Record<symbol, Hook[] | undefined>;
  (g[HOOKS] ??= []).push(hook);
}
