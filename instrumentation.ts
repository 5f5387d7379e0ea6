// Runs once when a server instance starts. The Node-only work lives in lib/startup.ts so the edge
// bundle of this file never sees it.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    // `npm start`'s node:http front (scripts/server.mjs) takes the edge guard from here: Next compiles
    // lib/edge/ with the rest of the build, so plain Node needs no TypeScript and no second build step.
    const edge = await import('./lib/edge');
    (globalThis as Record<symbol, unknown>)[Symbol.for('lantern.edge')] = edge;
    // …and waits for start-up before it listens: Next does not always hold its first request until
    // register() has returned, and a refused configuration must stop the server before it listens.
    const started = import('./lib/startup').then(({ startup }) => startup());
    (globalThis as Record<symbol, unknown>)[Symbol.for('lantern.started')] = started;
    await started;
  }
}
