// Runs once when a server instance starts. The Node-only work lives in lib/startup.ts so the edge
// bundle of this file never sees it.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startup } = await import('./lib/startup');
    await startup();
  }
}
