// Runs once when a server instance starts: a bad configuration stops start-up here, with a message
// naming the variable, instead of failing on the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { config, ConfigError } = await import('./lib/config');
  try {
    config();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
}
