import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { createMemoryMedia } from './helpers/memory-media.js';

// Admin > Jobs: every run with who, what, when and why it failed; retry and cancel, audited.
const provider = createFakeAiProvider({ delayMs: 20 });
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let failedId: string;
let succeededId: string;

const balance = async (userId: string) =>
  (await t.db.query<{ energy_balance: number }>('SELECT energy_balance FROM user_profiles WHERE id = $1', [userId]))[0]!.energy_balance;
const list = (query: string, who: TestUser = admin) => t.app.inject({ url: `/api/admin/jobs${query}`, headers: who.headers });
const audit = async (action: string) => t.db.query<{ target: string; new_value: Record<string, unknown> }>('SELECT target, new_value FROM admin_audit WHERE action = $1', [action]);
const waitFor = async (check: () => Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('timed out waiting');
};

beforeAll(async () => {
  t = await createTestApp({}, { provider, media: createMemoryMedia(), concurrency: 2, perUserConcurrency: 2, maxAttempts: 1 });
  admin = await registerUser(t, { role: 'admin' });
  alice = await registerUser(t, { email: `alice-${Date.now()}@example.com`, energy: 20 });
  bob = await registerUser(t, { email: `bob_${Date.now()}@example.com`, energy: 20 });
  const ok = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: alice.headers, payload: { image_url: 'https://x.test/a.png' } });
  expect(ok.statusCode).toBe(200);
  succeededId = ok.json().job_id ?? (await t.db.query<{ id: string }>('SELECT id FROM tool_jobs WHERE user_id = $1', [alice.id]))[0]!.id;
  provider.behaviour.failWith = 'The model could not process this image';
  try {
    const failed = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: bob.headers, payload: { image_url: 'https://x.test/b.png' } });
    expect(failed.statusCode).toBe(422);
  } finally {
    provider.behaviour.failWith = undefined;
  }
  failedId = (await t.db.query<{ id: string }>("SELECT id FROM tool_jobs WHERE user_id = $1 AND status = 'failed'", [bob.id]))[0]!.id;
}, 120_000);
afterAll(() => t?.close());

describe('GET /api/admin/jobs', () => {
  it('lists every user\'s runs newest first, with user, tool, status, timings, provider and error', async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    const items = res.json().items as Record<string, unknown>[];
    expect(items.map((j) => j.id)).toEqual([failedId, succeededId]);
    expect(items[0]).toMatchObject({
      user_id: bob.id,
      user_email: bob.email,
      tool: 'fal-upscaler',
      status: 'failed',
      provider: expect.any(String),
      error: 'The model could not process this image',
      error_code: 'provider_refused',
      wait_ms: expect.any(Number),
      run_ms: expect.any(Number),
      finished_at: expect.any(String),
    });
    expect(items[1]).toMatchObject({ user_email: alice.email, status: 'succeeded', error: null, error_code: null });
  });

  it('filters by tool, status, error, user (e-mail part or id) and time', async () => {
    const ids = async (q: string) => ((await list(q)).json().items as { id: string }[]).map((j) => j.id);
    expect(await ids('?status=failed')).toEqual([failedId]);
    expect(await ids('?error_code=provider_refused')).toEqual([failedId]);
    expect(await ids('?tool=fal-upscaler&status=succeeded')).toEqual([succeededId]);
    expect(await ids('?tool=fal-image-editor')).toEqual([]);
    expect(await ids(`?user=${encodeURIComponent(alice.email.slice(0, 8).toUpperCase())}`)).toEqual([succeededId]);
    expect(await ids(`?user=${bob.id}`)).toEqual([failedId]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const past = new Date(Date.now() - 3_600_000).toISOString();
    expect(await ids(`?from=${future}`)).toEqual([]);
    expect(await ids(`?from=${past}&to=${future}`)).toEqual([failedId, succeededId]);
  });

  it('pages with a cursor', async () => {
    const first = await list('?limit=1');
    expect(first.json().items).toHaveLength(1);
    const second = await list(`?limit=1&cursor=${first.json().next_cursor}`);
    expect(second.json().items[0].id).toBe(succeededId);
    expect(second.json().next_cursor).toBeNull();
  });

  it('hostile input: LIKE wildcards match only themselves, bad values are 400, and only admins may look', async () => {
    // '_' is a wildcard for one character in LIKE; bob's address has a real one, alice's has '-' there.
    expect((await list('?user=bob_')).json().items.map((j: { id: string }) => j.id)).toEqual([failedId]);
    expect((await list('?user=alice_')).json().items).toEqual([]);
    expect((await list('?user=%25')).json().items).toEqual([]);
    expect((await list('?status=exploded')).statusCode).toBe(400);
    expect((await list('?from=yesterday')).statusCode).toBe(400);
    const now = new Date().toISOString();
    expect((await list(`?from=${now}&to=${now}`)).statusCode).toBe(400);
    expect((await list('?cursor=bm90LWEtY3Vyc29y')).statusCode).toBe(400);
    expect((await list('', alice)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/jobs' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/jobs/${failedId}/retry`, headers: alice.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/jobs/${failedId}/cancel`, headers: bob.headers })).statusCode).toBe(403);
  });
});

describe('retry and cancel', () => {
  it('retry runs a failed job again for its owner, charged like their own retry, and is audited', async () => {
    const before = await balance(bob.id);
    const res = await t.app.inject({ method: 'POST', url: `/api/admin/jobs/${failedId}/retry`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const { new_job_id } = res.json();
    expect(res.json()).toMatchObject({ job_id: failedId, status: 'failed', new_job_id: expect.any(String) });
    await waitFor(async () => (await t.db.query<{ status: string }>('SELECT status FROM tool_jobs WHERE id = $1', [new_job_id]))[0]?.status === 'succeeded');
    const [job] = await t.db.query<{ user_id: string; cost: number }>('SELECT user_id, cost FROM tool_jobs WHERE id = $1', [new_job_id]);
    expect(job!.user_id).toBe(bob.id);
    expect(await balance(bob.id)).toBe(before - job!.cost);
    expect(await audit('retry_job')).toEqual([expect.objectContaining({ target: failedId, new_value: expect.objectContaining({ new_job_id }) })]);
  });

  it('a run that did not fail cannot be retried; an unknown id is 404', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/api/admin/jobs/${succeededId}/retry`, headers: admin.headers });
    expect(res.statusCode).toBe(409);
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/jobs/00000000-0000-4000-8000-000000000000/retry', headers: admin.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/jobs/not-a-uuid/cancel', headers: admin.headers })).statusCode).toBe(404);
  });

  it('cancel stops a running job, refunds it once, and is audited; a second cancel is 409', async () => {
    provider.behaviour.delayMs = 60_000;
    try {
      const before = await balance(alice.id);
      const job = await t.ctx.services.tools.submit.submit({ id: alice.id, role: 'user' }, 'fal-upscaler', { image_url: 'https://x.test/slow.png' });
      expect(await balance(alice.id)).toBe(before - job.cost);
      const res = await t.app.inject({ method: 'POST', url: `/api/admin/jobs/${job.id}/cancel`, headers: admin.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ job_id: job.id, status: 'canceled' });
      expect(await balance(alice.id)).toBe(before);
      const again = await t.app.inject({ method: 'POST', url: `/api/admin/jobs/${job.id}/cancel`, headers: admin.headers });
      expect(again.statusCode).toBe(409);
      expect(await balance(alice.id)).toBe(before);
      const [row] = await t.db.query<{ status: string; error_code: string }>('SELECT status, error_code FROM tool_jobs WHERE id = $1', [job.id]);
      expect(row).toEqual({ status: 'canceled', error_code: 'cancelled' });
      expect((await audit('cancel_job')).map((a) => a.target)).toEqual([job.id]);
    } finally {
      provider.behaviour.delayMs = 20;
    }
  });
});

describe('failure rate per tool', () => {
  it('counts runs that ended in the last hour and day, and the failed ones; cancelled runs are neither', async () => {
    const res = await t.app.inject({ url: '/api/admin/jobs/failure-rates', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const upscaler = res.json().tools.find((r: { tool: string }) => r.tool === 'fal-upscaler');
    // alice's success, bob's failure and its successful retry; alice's cancelled run is left out.
    expect(upscaler).toEqual({ tool: 'fal-upscaler', hour: { runs: 3, failed: 1 }, day: { runs: 3, failed: 1 } });
    expect((await t.app.inject({ url: '/api/admin/jobs/failure-rates', headers: alice.headers })).statusCode).toBe(403);
  });
});

describe('GET /api/admin/charts', () => {
  it('ENERGY sold and spent, and runs and failures per tool, one value per UTC day with every day and tool present', async () => {
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    // Two days ago: a purchase of 500; three days ago: a failed image-to-video run; 40 days ago: outside the range.
    await t.db.query(
      `INSERT INTO energy_transactions (user_id, type, description, amount, created_at, payment_id)
       VALUES ($1, 'purchase', 'Starter', 500, now() - interval '2 days', 'pay_chart_1'), ($1, 'purchase', 'Old', 900, now() - interval '40 days', 'pay_chart_2')`,
      [alice.id],
    );
    await t.db.query(
      `INSERT INTO tool_jobs (user_id, tool, input, cost, status, error_code, deadline_at, created_at, finished_at)
       VALUES ($1, 'fal-image-to-video', '{}'::jsonb, 0, 'failed', 'timed_out', now(), now() - interval '3 days', now() - interval '3 days'),
              ($1, 'fal-image-to-video', '{}'::jsonb, 0, 'failed', 'timed_out', now(), now() - interval '40 days', now() - interval '40 days')`,
      [alice.id],
    );
    const res = await t.app.inject({ url: '/api/admin/charts', headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { days: string[]; energy: { sold: number[]; spent: number[] }; tools: Array<{ tool: string; runs: number[]; failed: number[] }> };
    expect(body.days).toHaveLength(30);
    expect(body.days.at(-1)).toBe(day(0));
    expect(body.days[0]).toBe(day(29));
    const at = (ago: number) => body.days.indexOf(day(ago));
    expect(body.energy.sold[at(2)]).toBe(500);
    expect(body.energy.sold.reduce((a, b) => a + b, 0)).toBe(500);
    // Today's net spend: every charge less every refund (the failed and cancelled runs gave theirs back).
    const [{ net }] = await t.db.query<{ net: number }>(
      `SELECT (COALESCE(sum(-amount) FILTER (WHERE type = 'spend'), 0) - COALESCE(sum(amount) FILTER (WHERE type = 'refund'), 0))::int AS net
         FROM energy_transactions WHERE created_at > now() - interval '1 day'`,
    );
    expect(net).toBeGreaterThan(0);
    expect(body.energy.spent[at(0)]).toBe(net);
    // Every tool of the product has its series, zeros included.
    expect(body.tools.map((s) => s.tool).sort()).toEqual(t.ctx.services.registry.list.map((tool) => tool.info.endpoint).sort());
    const upscaler = body.tools.find((s) => s.tool === 'fal-upscaler')!;
    expect(upscaler.runs[at(0)]).toBe(3); // as the failure rate counts them: the cancelled run is left out
    expect(upscaler.failed[at(0)]).toBe(1);
    const video = body.tools.find((s) => s.tool === 'fal-image-to-video')!;
    expect(video.runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(video.failed[at(3)]).toBe(1);

    const week = await t.app.inject({ url: '/api/admin/charts?days=7', headers: admin.headers });
    expect(week.json().days).toHaveLength(7);
    for (const days of ['6', '91', 'x']) expect((await t.app.inject({ url: `/api/admin/charts?days=${days}`, headers: admin.headers })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/admin/charts', headers: alice.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/charts' })).statusCode).toBe(401);
  });
});
