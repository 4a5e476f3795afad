import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// On a database server every process must be given the secret (the app refuses to start
// without one); the test run is one deployment, so all its processes share one.
const serverSecret = process.env.DATABASE_URL && !process.env.APP_SECRET ? { APP_SECRET: randomBytes(32).toString('hex') } : {};

// A module mock (vi.mock) replaces a module for the file that asks; in a worker whose modules are
// shared between files it would not take (the real module is already loaded) and would leak
// into the next file. Server test files that mock a module keep a fresh module graph.
const serverTests = fs
  .readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => path.posix.join('test', f.split(path.sep).join('/')));
const mocking = serverTests.filter((f) => /\bvi\.mock\(/.test(fs.readFileSync(f, 'utf8')));

export default defineConfig({
  test: {
    environment: 'node',
    env: serverSecret,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are memory-hungry; a few files at a time is plenty on 2 cores.
    maxWorkers: 3,
    // CI gives a test that lost a race against a busy machine one more try;
    // a real failure fails twice. Locally a failure shows at once.
    retry: Number(process.env.TEST_RETRIES ?? 0),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: serverTests.filter((f) => !mocking.includes(f)),
          // On the embedded database, every test database starts from one migrated data directory.
          globalSetup: ['test/helpers/pglite-snapshot.ts'],
          // The server's test files share a worker's modules instead of loading the app afresh
          // for each file (a quarter of the unit tests' time went to that). Each file builds its
          // own app, database and runtime from them; nothing a file sets up is module-global.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'server-mocking', include: mocking, globalSetup: ['test/helpers/pglite-snapshot.ts'] },
      },
      {
        extends: true,
        // The web's tests keep a fresh module graph per file: they register view and tool
        // stand-ins in the web's module-level registry.
        test: { name: 'web', include: ['src/**/*.test.ts', 'src/**/*.test.tsx'] },
      },
    ],
  },
});
