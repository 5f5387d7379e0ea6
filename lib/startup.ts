import { config, ConfigError } from './config';

/** A bad configuration stops start-up here, naming the variable, instead of failing on the first request. */
export async function startup() {
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
