import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { createMemoryMedia } from './helpers/memory-media.js';
import { runToolJob, type RunDeps } from '../src/server/jobs/tool-run.worker.js';

// No workers of its own: each test hands the worker the queue message itself.
const provider = createFakeAiProvider({ delayMs: 0 });
let t: TestApp;
let deps: RunDeps;
beforeAll(async () => {
  t = await createTestApp({}, { provider, media: createMemoryMedia(), runWorkers: false });
  const tools = t.ctx.services.tools!;
  deps = { queue: t.runtime!.queue, tools, media: tools.media, providerFor: () => provider, log: pino({ level: 'silent' }) };
});
afterAll(async () => {
  await t.close();
});

const balanceOf = async (user: TestUser) =>
  (await t.db.query<{ energy_balance: number }>('SELECT energy_balance FROM user_profiles WHERE id = $1', [user.id]))[0]!.energy_balance;

async function queuedRun(user: TestUser) {
  const job = await t.ctx.services.tools!.submit.submit({ id: user.id, role: 'user' }, 'fal-upscaler', { image_url: 'https://x.test/a.png' });
  return { jobId: job.id, userId: user.id, timeLimitSeconds: 60 };
}

describe('the message a run is queued with', () => {
  it('names the run\'s tool', async () => {
    const user = await registerUser(t, { energy: 10 });
    const message = await queuedRun(user);
    const [stored] = await t.runtime!.queue.boss.findJobs('tool-run', { id: message.jobId });
    expect(stored?.data).toMatchObject({ jobId: message.jobId, tool: 'fal-upscaler' });
  });

  it('a run queued by an older build (no tool in its message) still runs, charged once', async () => {
    const user = await registerUser(t, { energy: 10 });
    const message = await queuedRun(user);
    await runToolJob(message, deps);
    const ended = await t.ctx.services.tools!.runs.findOwned(user.id, message.jobId);
    expect(ended.status).toBe('succeeded');
    expect(await balanceOf(user)).toBe(10 - ended.cost);
  });

  it.each([
    ['named in the message', true],
    ['read from the job of an older build', false],
  ])('a run of a tool this build does not have (%s) fails, refunded once', async (_how, named) => {
    const user = await registerUser(t, { energy: 10 });
    const message = await queuedRun(user);
    await t.db.query("UPDATE tool_jobs SET tool = 'retired-tool' WHERE id = $1", [message.jobId]);
    await runToolJob(named ? { ...message, tool: 'retired-tool' } : message, deps);
    await runToolJob(named ? { ...message, tool: 'retired-tool' } : message, deps);
    const ended = await t.ctx.services.tools!.runs.findOwned(user.id, message.jobId);
    expect([ended.status, ended.error_code]).toEqual(['failed', 'unknown_tool']);
    expect(await balanceOf(user)).toBe(10);
  });
});
