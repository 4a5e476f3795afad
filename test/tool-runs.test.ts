import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raceTest } from './helpers/test-db.js';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { createMemoryMedia } from './helpers/memory-media.js';
import type { RealtimeEvent } from '../src/server/realtime/realtime-hub.js';

const provider = createFakeAiProvider({ delayMs: 40 });
const media = createMemoryMedia();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { provider, media, perUserConcurrency: 1, concurrency: 2, maxAttempts: 3 });
});
afterAll(() => t.close());

const balance = async (userId: string) =>
  (await t.db.query<{ energy_balance: number }>('SELECT energy_balance FROM user_profiles WHERE id = $1', [userId]))[0].energy_balance;
const ledgerSum = async (userId: string) =>
  (await t.db.query<{ s: number }>('SELECT COALESCE(SUM(amount), 0)::int AS s FROM energy_transactions WHERE user_id = $1', [userId]))[0].s;
const run = (user: TestUser, tool: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/functions/v1/${tool}`, headers: { ...user.headers, ...headers }, payload: payload as object });
const jobsOf = async (userId: string) => t.db.query<{ id: string; status: string; cost: number }>('SELECT id, status, cost FROM tool_jobs WHERE user_id = $1', [userId]);
const waitUntil = async (check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('timed out waiting');
};

describe('validation (requirements §5) before any charge', () => {
  it.each([
    ['fal-image-editor', { prompt: 'rotate 90' }, 'Please select an image to edit'],
    ['fal-image-editor', { image_url: 'https://x.test/a.png', prompt: '   ' }, 'Please describe what changes you want to make'],
    ['fal-image-restore', {}, 'Please select an image to restore'],
    ['fal-image-restore', { image_url: 'u', upscaling: 4.25 }, 'Upscaling must be between 1 and 4 in steps of 0.5'],
    ['fal-image-restore', { image_url: 'u', backbone: 'vgg' }, "Backbone must be 'edsr' or 'rdn'"],
    ['fal-image-restore', { image_url: 'u', seed: 1.5 }, 'Seed must be a whole number'],
    ['fal-upscaler', { image_url: '' }, 'Please select an image to upscale'],
    ['fal-upscaler', { image_url: 'u', scale: 9 }, 'Scale must be between 2 and 8 in steps of 1'],
    ['fal-image-to-video', { prompt: 'zoom' }, 'Please select an image to animate'],
    ['fal-image-to-video', { image_url: 'u' }, 'Please describe the video animation you want'],
    ['fal-image-to-video', { image_url: 'u', prompt: 'p', num_frames: 85 }, 'Number of frames must be between 81 and 121 in steps of 10'],
    ['fal-image-to-video', { image_url: 'u', prompt: 'p', frames_per_second: 62 }, 'Frames per second must be between 4 and 60 in steps of 4'],
    ['fal-image-to-video', { image_url: 'u', prompt: 'p', num_inference_steps: 22 }, 'Inference steps must be between 20 and 50 in steps of 5'],
    ['fal-image-to-video', { image_url: 'u', prompt: 'p', guidance_scale: 10.5 }, 'Guidance scale must be between 1 and 10 in steps of 0.5'],
    ['fal-image-to-video', { image_url: 'u', prompt: 'p', loras: [{ path: 'x', scale: 2.5 }] }, 'LoRA scale must be between 0 and 2 in steps of 0.1'],
    ['fal-video-upscaler', {}, 'Please select a video to upscale'],
    ['fal-video-upscaler', { video_url: 'v', scale: 1 }, 'Scale must be between 1.5 and 4 in steps of 0.5'],
    [
      'fal-image-editor',
      { image_url: 'u', prompt: 'total nonsense' },
      `I couldn't understand "total nonsense", so nothing was charged. The closest things this editor can do: 'make it brighter', 'blur the background', 'vintage look'.`,
    ],
  ])('%s %j -> %s', async (tool, body, message) => {
    const user = await registerUser(t, { energy: 50 });
    const res = await run(user, tool, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
    expect(await jobsOf(user.id)).toHaveLength(0);
    expect(await balance(user.id)).toBe(50);
  });

  it('refuses anonymous runs with the spec message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', payload: { image_url: 'u' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('No authentication token found');
  });
});

describe('charging', () => {
  it('insufficient balance -> 402 with the spec message and nothing changes', async () => {
    const user = await registerUser(t, { energy: 1 });
    const res = await run(user, 'fal-upscaler', { image_url: 'https://x.test/a.png' });
    expect(res.statusCode).toBe(402);
    expect(res.json().error).toBe('Insufficient ENERGY. You need at least 2 ENERGY to use Image Upscaler');
    expect(await balance(user.id)).toBe(1);
    expect(await jobsOf(user.id)).toHaveLength(0);
  });

  it('a successful run answers the spec fields, charges the server price once and saves one library item', async () => {
    const user = await registerUser(t, { energy: 10 });
    const res = await run(user, 'fal-upscaler', { image_url: 'https://x.test/a.png', energy_used: 0, cost: 0, scale: 4 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ energy_used: 2, scale_factor: 4, model: 'fake-fal-upscaler', original_url: 'https://x.test/a.png' });
    expect(body.upscaled_url).toMatch(/^http:\/\/files\.test\//);
    expect(body.job_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await balance(user.id)).toBe(8);
    expect(await ledgerSum(user.id)).toBe(8);
    expect([...media.items.values()].filter((i) => i.jobId === body.job_id)).toHaveLength(1);

    const history = (await t.app.inject({ url: '/api/jobs', headers: user.headers })).json();
    expect(history.items[0]).toMatchObject({ id: body.job_id, tool: 'fal-upscaler', status: 'succeeded', cost: 2, progress_fraction: 1 });
    expect(history.items[0].started_at).toBeTruthy();
    expect(history.items[0].finished_at).toBeTruthy();
    const one = (await t.app.inject({ url: `/api/jobs/${body.job_id}`, headers: user.headers })).json();
    expect(one.status).toBe('succeeded');
  });

  it('every tool answers its own response fields', async () => {
    const user = await registerUser(t, { energy: 100 });
    const editor = (await run(user, 'fal-image-editor', { image_url: 'u1', prompt: 'make it brighter' })).json();
    expect(editor).toMatchObject({ edited_url: expect.any(String), original_url: 'u1', energy_used: 1, prompt_used: 'make it brighter' });
    const restore = (await run(user, 'fal-image-restore', { image_url: 'u2', upscaling: 2.5, backbone: 'rdn', seed: 7 })).json();
    expect(restore).toMatchObject({ restored_url: expect.any(String), energy_used: 1, settings: { upscaling: 2.5, backbone: 'rdn' } });
    const video = (await run(user, 'fal-image-to-video', { image_url: 'u3', prompt: 'zoom in slowly', num_frames: 81, frames_per_second: 16 })).json();
    expect(video).toMatchObject({ video_url: expect.any(String), energy_used: 5, prompt_used: 'zoom in slowly', duration_seconds: 5.063 });
    const vup = (await run(user, 'fal-video-upscaler', { video_url: 'v1', scale: 1.5 })).json();
    expect(vup).toMatchObject({ upscaled_url: expect.any(String), original_url: 'v1', energy_used: 20, scale_factor: 1.5 });
    const item = [...media.items.values()].find((i) => i.jobId === vup.job_id)!;
    expect(item.prompt).toBe('Upscaled 1.5x from original video');
    const named = [...media.items.values()].find((i) => i.jobId === video.job_id)!;
    expect(named.name).toBe('Video zoom in slowly');
    // Each answer is of the tool's output kind, whatever provider made it.
    const kindOf = (jobId: string) => [...media.items.values()].find((i) => i.jobId === jobId)!.contentType;
    expect([editor, restore, video, vup].map((a) => kindOf(a.job_id))).toEqual(['image/png', 'image/png', 'video/mp4', 'video/mp4']);
    expect(await balance(user.id)).toBe(100 - 1 - 1 - 5 - 20);
  });

  it('VIP and admin runs cost 0 and still appear in their history', async () => {
    for (const role of ['vip', 'admin'] as const) {
      const user = await registerUser(t, { role });
      const res = await run(user, 'fal-image-to-video', { image_url: 'u', prompt: 'pan left' });
      expect(res.statusCode).toBe(200);
      expect(res.json().energy_used).toBe(0);
      const history = (await t.app.inject({ url: '/api/jobs', headers: user.headers })).json();
      expect(history.items[0]).toMatchObject({ cost: 0, status: 'succeeded' });
      const tx = (await t.app.inject({ url: '/api/transactions', headers: user.headers })).json();
      expect(tx.items[0]).toMatchObject({ type: 'spend', amount: 0 });
    }
  });

  it('a failing run shows the error and refunds exactly once', async () => {
    const user = await registerUser(t, { energy: 10 });
    provider.behaviour.failWith = 'The model could not process this image';
    try {
      const res = await run(user, 'fal-upscaler', { image_url: 'https://x.test/a.png' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: 'The model could not process this image', refunded: true, energy_refunded: 2, status: 'failed' });
    } finally {
      provider.behaviour.failWith = undefined;
    }
    expect(await balance(user.id)).toBe(10);
    const types = (await t.db.query<{ type: string; amount: number }>('SELECT type, amount FROM energy_transactions WHERE user_id = $1 AND job_id IS NOT NULL ORDER BY created_at', [user.id])).map((r) => `${r.type}:${r.amount}`);
    expect(types).toEqual(['spend:-2', 'refund:2']);
  });

  it('an input that cannot be read fails with the tool fallback message after retries, refunded', async () => {
    const user = await registerUser(t, { energy: 10 });
    const res = await run(user, 'fal-image-restore', { image_url: 'https://x.test/missing.png' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('Failed to restore image');
    expect(await balance(user.id)).toBe(10);
  });
});

describe('idempotency (L3)', () => {
  it(raceTest('20 concurrent identical runs with one Idempotency-Key -> one job, one charge, same answer'), async () => {
    const user = await registerUser(t, { energy: 10 });
    const headers = { 'idempotency-key': 'run-once-123' };
    const results = await Promise.all(Array.from({ length: 20 }, () => run(user, 'fal-upscaler', { image_url: 'https://x.test/i.png' }, headers)));
    const ids = new Set(results.map((r) => r.json().job_id));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(ids.size).toBe(1);
    expect(await jobsOf(user.id)).toHaveLength(1);
    expect(await balance(user.id)).toBe(8);
    const again = await run(user, 'fal-upscaler', { image_url: 'https://x.test/other.png' }, headers);
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toBe('This Idempotency-Key was already used for a different request');
  });
});

describe('settling exactly once (L4, L5)', () => {
  async function heldJob(user: TestUser) {
    const tools = t.ctx.services.tools!;
    const job = await t.db.transaction(async () => null).then(() =>
      tools.submit.submit({ id: user.id, role: 'user' as const }, 'fal-upscaler', { image_url: 'https://x.test/a.png' }),
    );
    return job;
  }

  it(raceTest('success and failure racing on one running job -> one outcome, balance consistent'), async () => {
    provider.behaviour.delayMs = 2_000;
    try {
      const user = await registerUser(t, { energy: 10 });
      const tools = t.ctx.services.tools!;
      const job = await heldJob(user);
      await waitUntil(async () => (await tools.work.peek(job.id))!.status === 'running');
      const running = (await tools.work.peek(job.id))!;
      const item = await media.saveResult({ userId: user.id, jobId: job.id, output: { path: '/x', contentType: 'image/png', model: 'm' }, kind: 'image', generationType: 'x', originalName: 'x', originalImageUrl: null, prompt: null });
      const [won, failed] = await Promise.all([
        tools.settle.settleSuccess(running, { model: 'm' }, item.itemId),
        tools.settle.settleFailure(job.id, 'failed', 'boom'),
      ]);
      expect([won, !!failed].filter(Boolean)).toHaveLength(1);
      const final = (await tools.work.peek(job.id))!;
      expect(await balance(user.id)).toBe(final.status === 'succeeded' ? 8 : 10);
      expect(await ledgerSum(user.id)).toBe(await balance(user.id));
      // A cancel after the end changes nothing.
      const cancel = await t.app.inject({ method: 'POST', url: `/api/jobs/${job.id}/cancel`, headers: user.headers });
      expect(cancel.statusCode).toBe(409);
    } finally {
      provider.behaviour.delayMs = 40;
    }
  });

  it(raceTest('a stuck job swept twice (even concurrently) is refunded once'), async () => {
    provider.behaviour.delayMs = 2_000;
    try {
      const user = await registerUser(t, { energy: 10 });
      const tools = t.ctx.services.tools!;
      const job = await heldJob(user);
      // A sweep counts every stuck job: clear any an earlier try left, so only this one is counted.
      await tools.sweep.sweep();
      await t.db.query("UPDATE tool_jobs SET deadline_at = now() - interval '10 minutes' WHERE id = $1", [job.id]);
      const [a, b] = await Promise.all([tools.sweep.sweep(), tools.sweep.sweep()]);
      expect(a + b).toBe(1);
      expect(await tools.sweep.sweep()).toBe(0);
      expect((await tools.work.peek(job.id))!.status).toBe('failed');
      expect(await balance(user.id)).toBe(10);
      const refunds = await t.db.query("SELECT 1 FROM energy_transactions WHERE job_id = $1 AND type = 'refund'", [job.id]);
      expect(refunds).toHaveLength(1);
      // The worker notices and does not save a result.
      await t.ctx.services.queue.idle();
      expect([...media.items.values()].filter((i) => i.jobId === job.id)).toHaveLength(0);
      expect((await tools.work.peek(job.id))!.status).toBe('failed');
    } finally {
      provider.behaviour.delayMs = 40;
    }
  });

  it('cancelling a running job refunds it once and stops the worker', async () => {
    provider.behaviour.delayMs = 3_000;
    try {
      const user = await registerUser(t, { energy: 10 });
      const tools = t.ctx.services.tools!;
      const job = await heldJob(user);
      await waitUntil(async () => (await tools.work.peek(job.id))!.status === 'running');
      const res = await t.app.inject({ method: 'POST', url: `/api/jobs/${job.id}/cancel`, headers: user.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe('canceled');
      expect(await balance(user.id)).toBe(10);
      // The worker stops on its own signal: its handler returns without saving.
      await t.ctx.services.queue.idle();
      expect([...media.items.values()].filter((i) => i.jobId === job.id)).toHaveLength(0);
      // Retry makes a new, charged run with the same inputs.
      provider.behaviour.delayMs = 40;
      const retry = await t.app.inject({ method: 'POST', url: `/api/jobs/${job.id}/retry`, headers: user.headers });
      expect(retry.statusCode).toBe(202);
      const ended = await tools.events.waitForEnd(retry.json().job_id, 10_000);
      expect(ended.status).toBe('succeeded');
      expect(await balance(user.id)).toBe(8);
    } finally {
      provider.behaviour.delayMs = 40;
    }
  });
});

describe('ownership (A4)', () => {
  it('user B cannot read, cancel or retry user A\'s runs', async () => {
    const a = await registerUser(t, { energy: 10 });
    const b = await registerUser(t, { energy: 10 });
    const { job_id } = (await run(a, 'fal-upscaler', { image_url: 'https://x.test/a.png' })).json();
    for (const [method, url] of [
      ['GET', `/api/jobs/${job_id}`],
      ['GET', `/api/jobs/${job_id}/result`],
      ['POST', `/api/jobs/${job_id}/cancel`],
      ['POST', `/api/jobs/${job_id}/retry`],
    ] as const) {
      expect((await t.app.inject({ method, url, headers: b.headers })).statusCode).toBe(404);
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
    expect((await t.app.inject({ url: '/api/jobs', headers: b.headers })).json().items).toHaveLength(0);
    expect(await balance(b.id)).toBe(10);
  });
});

describe('progress and fairness', () => {
  it('progress is recorded and streamed as job events', async () => {
    const user = await registerUser(t, { energy: 10 });
    const events: RealtimeEvent[] = [];
    await t.ctx.services.realtime.ready();
    const unsubscribe = t.ctx.services.realtime.subscribe(user.id, { send: (e) => events.push(e), heartbeat() {}, close() {} });
    provider.behaviour.delayMs = 400;
    try {
      const res = await run(user, 'fal-image-editor', { image_url: 'u', prompt: 'sepia' });
      expect(res.statusCode).toBe(200);
      await waitUntil(async () => events.some((e) => e.type === 'job' && (e.data as { status: string }).status === 'succeeded'));
    } finally {
      provider.behaviour.delayMs = 40;
      unsubscribe();
    }
    const jobEvents = events.filter((e) => e.type === 'job').map((e) => e.data as { status: string; progress_fraction: number });
    expect(jobEvents[0].status).toBe('queued');
    expect(jobEvents.some((e) => e.status === 'running' && e.progress_fraction > 0 && e.progress_fraction < 1)).toBe(true);
    expect(events.some((e) => e.type === 'balance')).toBe(true);
  });

  it('J3: one user\'s batch does not starve another user\'s single run', async () => {
    provider.behaviour.delayMs = 600;
    try {
      const heavy = await registerUser(t, { energy: 100 });
      const light = await registerUser(t, { energy: 10 });
      const tools = t.ctx.services.tools!;
      const asUser = (u: TestUser) => ({ id: u.id, role: 'user' as const });
      const batch = [];
      for (let i = 0; i < 5; i++) batch.push(await tools.submit.submit(asUser(heavy), 'fal-upscaler', { image_url: `https://x.test/${i}.png` }));
      const single = await tools.submit.submit(asUser(light), 'fal-upscaler', { image_url: 'https://x.test/light.png' });
      const singleDone = await tools.events.waitForEnd(single.id, 20_000);
      expect(singleDone.status).toBe('succeeded');
      // When the single run finished, most of the batch was still waiting (cap 1 per user).
      const batchDone = await Promise.all(batch.map((j) => tools.work.peek(j.id)));
      const finishedBefore = batchDone.filter((j) => j!.finished_at && new Date(j!.finished_at) <= new Date(singleDone.finished_at!)).length;
      expect(finishedBefore).toBeLessThanOrEqual(2);
      await Promise.all(batch.map((j) => tools.events.waitForEnd(j.id, 20_000)));
    } finally {
      provider.behaviour.delayMs = 40;
    }
  });
});

describe('run history paging', () => {
  it('pages newest first without gaps or repeats', async () => {
    const user = await registerUser(t, { role: 'vip' });
    const tools = t.ctx.services.tools!;
    const made: string[] = [];
    // 25 runs open at once: past the per-user cap on open runs, lifted for this history test.
    const cap = tools.submit.maxOpenRunsPerUser;
    tools.submit.maxOpenRunsPerUser = 0;
    try {
      for (let i = 0; i < 25; i++) made.push((await tools.submit.submit({ id: user.id, role: 'vip' }, 'fal-image-editor', { image_url: `u${i}`, prompt: 'sepia' })).id);
    } finally {
      tools.submit.maxOpenRunsPerUser = cap;
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string }[]; next_cursor: string | null } = (
        await t.app.inject({ url: `/api/jobs?limit=10${cursor ? `&cursor=${cursor}` : ''}`, headers: user.headers })
      ).json();
      seen.push(...page.items.map((i) => i.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
    expect((await t.app.inject({ url: '/api/jobs?cursor=bad!', headers: user.headers })).statusCode).toBe(400);
    await Promise.all(made.map((id) => tools.events.waitForEnd(id, 20_000)));
  });
});

describe('Prefer: respond-async', () => {
  it('answers 202 with the job id at once; the run still completes', async () => {
    const user = await registerUser(t, { energy: 10 });
    const res = await run(user, 'fal-upscaler', { image_url: 'https://x.test/async.png' }, { prefer: 'respond-async' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ job_id: expect.any(String), status: 'queued' });
    const ended = await t.ctx.services.tools!.events.waitForEnd(res.json().job_id, 10_000);
    expect(ended.status).toBe('succeeded');
    const result = await t.app.inject({ url: `/api/jobs/${ended.id}/result`, headers: user.headers });
    expect(result.json()).toMatchObject({ energy_used: 2, upscaled_url: expect.any(String) });
  });
});
