import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Db } from '../src/server/db/db.js';
import { JobQueue } from '../src/server/jobs/queue.js';
import { JOBS } from '../src/server/jobs/jobs.js';
import { defineJob } from '../src/server/jobs/job-definition.js';
import { openTestDb } from './helpers/test-db.js';

// A queue's name and payload schema are one definition: what is sent and what is worked are checked against it.
let db: Db;
let queue: JobQueue;

beforeAll(async () => {
  db = await openTestDb();
  queue = await JobQueue.start(db, { retryDelaySeconds: 1, superviseSeconds: 1 });
});
afterAll(async () => {
  await queue.stop();
  await db.close();
});

describe('job definitions', () => {
  it('a payload its queue refuses is never stored', async () => {
    await expect(queue.sendAccountExport({ exportId: 'e1' } as never)).rejects.toThrow(/account-export: payload does not match its schema/);
    expect(await queue.boss.findJobs(JOBS.accountExport.name)).toEqual([]);
  });

  it('a worker gets only payloads its schema accepts; a stored one it refuses fails, its handler never called', async () => {
    const probe = defineJob('job-definition-probe', z.object({ n: z.number().int() }), async ({ n }, seen: number[]) => {
      seen.push(n);
    });
    await queue.boss.createQueue(probe.name, { retryLimit: 0 });
    const seen: number[] = [];
    await queue.work(probe, seen, { localConcurrency: 1, pollingIntervalSeconds: 0.5 });
    // Written around the definition, as an older build or a stray sender would.
    const bad = await queue.boss.send(probe.name, { n: 'seven' });
    const good = await queue.boss.send(probe.name, { n: 7 });
    queue.wake();
    await expect.poll(async () => (await queue.boss.getJobById(probe.name, good!))?.state, { timeout: 15_000, interval: 100 }).toBe('completed');
    await expect.poll(async () => (await queue.boss.getJobById(probe.name, bad!))?.state, { timeout: 15_000, interval: 100 }).toBe('failed');
    const failed = await queue.boss.getJobById(probe.name, bad!);
    expect(JSON.stringify(failed?.output)).toMatch(/job-definition-probe: payload does not match its schema/);
    expect(seen).toEqual([7]);
  });
});
