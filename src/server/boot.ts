import pino from 'pino';
import { parseConfig, ConfigError, type Config } from './config.js';
import { openDatabase } from './db/open-db.js';
import { createServices, type AppContext } from './app-context.js';

/** config -> db (migrated) -> services: shared by the app, the worker and the CLI. */
export async function bootContext(config: Config = parseConfig()): Promise<AppContext> {
  const log = pino({
    level: config.LOG_LEVEL,
    ...(config.isProduction || !process.stdout.isTTY ? {} : { transport: { target: 'pino-pretty' } }),
  });
  const db = await openDatabase(config);
  const services = createServices(config, db, log);
  return { config, db, log, services };
}

/** Reads config or exits with a message naming the bad setting. */
export function configOrExit(): Config {
  try {
    return parseConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
