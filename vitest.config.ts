import { randomBytes } from 'node:crypto';
import { defineConfig } from 'vitest/config';

// On a database server every process must be given the secret (the app refuses to start
// without one); the test run is one deployment, so all its processes share one.
const serverSecret = process.env.DATABASE_URL && !process.env.APP_SECRET ? { APP_SECRET: randomBytes(32).toString('hex') } : {};

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    // On the embedded database, every test database starts from one migrated data directory.
    globalSetup: ['test/helpers/pglite-snapshot.ts'],
    env: serverSecret,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are memory-hungry; a few files at a time is plenty on 2 cores.
    maxWorkers: 3,
    // CI gives a test that lost a race against a busy machine one more try;
    // a real failure fails twice. Locally a failure shows at once.
    retry: Number(process.env.TEST_RETRIES ?? 0),
  },
});
