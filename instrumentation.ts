// Runs once when a server instance starts. The Node-only work lives in lib/startup.ts so the edge
// bundle of this file never sees it.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    // `npm start`'s node:http front (scripts/server.mjs) takes the edge guard from here: Next compiles
    // lib/edge/ with the rest of the build, so plain Node needs no TypeScript and no second build step.
    const edge = await import('./lib/edge');
    (globalThis as Record<symbol, unknown>)[Symbol.for('lantern.edge')] = edge;
    const { startup } = await import('./lib/startup');
    await startup();
  }
}
