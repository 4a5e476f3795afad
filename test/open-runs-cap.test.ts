import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitMessages } from '../src/shared/limits.messages.js';
import { createTestApp, registerUser, type TestApp } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { tempDir } from './library.fixtures.js';

/**
 * A user has a cap on runs waiting or running, not only on runs running
 * (issue 22: runs whose source hangs cost nothing, so one user could queue
 * any number of them ahead of everyone). Sources here hang until the test
 * ends; the cap is counted under a per-user lock, so parallel starts cannot
 * all pass one count (both databases).
 */
const CAP = 6;
let t: TestApp;
let hanging: http.Server;
let port = 0;
const open: http.ServerResponse[] = [];
beforeAll(async () => {
  hanging = http.createServer((_req, res) => {
    open.push(res); // never answers
  });
  await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', () => r()));
  port = (hanging.address() as AddressInfo).port;
  t = await createTestApp(
    { FETCH_ALLOW_PRIVATE_HOSTS: `127.0.0.1:${port}`, USER_OPEN_RUNS: String(CAP), TOOL_RUNS_PER_MINUTE: '100', DATA_DIR: tempDir('pr-open-runs-') },
    { provider: createFakeAiProvider({ delayMs: 0 }), concurrency: 2, perUserConcurrency: 2 },
  );
}, 60_000);
afterAll(async () => {
  for (const res of open) res.destroy();
  hanging.closeAllConnections();
  hanging.close();
  await t?.close();
});

describe('a cap on runs waiting or running per user', () => {
  it('12 parallel starts with hanging sources: 6 are accepted, 6 refused before any charge; another user still starts', async () => {
    const user = await registerUser(t, { energy: 100 });
    const start = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/functions/v1/fal-upscaler',
        headers: { ...user.headers, prefer: 'respond-async' },
        payload: { image_url: `http://127.0.0.1:${port}/hang-${i}.png` },
      });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => start(i)));
    const accepted = answers.filter((a) => a.statusCode === 202);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(accepted).toHaveLength(CAP);
    expect(refused).toHaveLength(12 - CAP);
    expect(refused[0]!.json()).toEqual({ error: limitMessages.openRuns(CAP), code: 'rate_limited', request_id: expect.any(String) });
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const [{ n, spent }] = await t.db.query<{ n: number; spent: number }>(
      `SELECT count(*)::int AS n, (SELECT -COALESCE(SUM(amount), 0)::int FROM energy_transactions WHERE user_id = $1 AND type = 'spend') AS spent
         FROM tool_jobs WHERE user_id = $1`,
      [user.id],
    );
    expect(n).toBe(CAP);
    expect(spent).toBe(CAP * 2); // the upscaler costs 2

    // The cap is the user's own: someone else starts a run at once.
    const other = await registerUser(t, { energy: 10 });
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/fal-upscaler',
      headers: { ...other.headers, prefer: 'respond-async' },
      payload: { image_url: `http://127.0.0.1:${port}/other.png` },
    });
    expect(theirs.statusCode).toBe(202);
  }, 120_000);
});
