import { describe, expect, it } from 'vitest';
import { openTestDb, onPostgresServer } from './helpers/test-db.js';

// The LISTEN connection to a Postgres server can drop (restart, failover,
// idle kill): realtime updates must come back on their own.
describe.runIf(onPostgresServer())('LISTEN survives a dropped connection', () => {
  it('re-listens after the listening backend is terminated', async () => {
    const db = await openTestDb();
    try {
      const got: string[] = [];
      await db.listen('reconnect_test', (p) => got.push(p));
      await db.notify('reconnect_test', 'one');
      await expect.poll(() => got, { timeout: 5_000 }).toContain('one');

      const killed = await db.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
          WHERE query ILIKE 'LISTEN%reconnect_test%' AND pid <> pg_backend_pid()`,
      );
      expect(killed[0].n).toBeGreaterThan(0);

      // Keep notifying until the new connection is listening again.
      await expect
        .poll(
          async () => {
            await db.notify('reconnect_test', 'two');
            return got;
          },
          { timeout: 15_000, interval: 300 },
        )
        .toContain('two');
    } finally {
      await db.close();
    }
  }, 30_000);
});
