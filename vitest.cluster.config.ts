import { defineConfig } from 'vitest/config';

// `npm run test:cluster`: real processes on a Postgres server; kept out of `npm test`.
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.cluster.ts'],
    environment: 'node',
    testTimeout: 420_000,
    hookTimeout: 180_000,
    maxWorkers: 1,
  },
});
