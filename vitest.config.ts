import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are memory-hungry; a few files at a time is plenty on 2 cores.
    maxWorkers: 3,
    // CI gives a test that lost a race against a busy machine one more try;
    // a real failure fails twice. Locally a failure shows at once.
    retry: Number(process.env.TEST_RETRIES ?? 0),
  },
});
