import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { verifySignature, SIGNATURE_HEADER } from '../src/server/features/webhooks/webhook-signature.js';
import { webhookEventSchema } from '../src/shared/webhooks.schema.js';

/** A receiver on loopback that answers with the scripted statuses, then 200. */
function receiver(statuses: number[] = []) {
  const got: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.statusCode = statuses.shift() ?? 200;
      res.end('ok');
    });
  });
  return {
    got,
    server,
    async listen() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return (server.address() as AddressInfo).port;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function endedJob(t: TestApp, user: TestUser, url: string, status: 'succeeded' | 'failed' = 'succeeded') {
  const [{ id }] = await t.db.query<{ id: string }>(
    `INSERT INTO tool_jobs (user_id, tool, status, input, cost, deadline_at, webhook_url)
     VALUES ($1, 'fal-upscaler', 'running', '{}', 2, now() + interval '1 hour', $2) RETURNING id`,
    [user.id, url],
  );
  await t.db.query(
    `UPDATE tool_jobs SET status = $2, result = $3, finished_at = now() WHERE id = $1 AND status = 'running'`,
    [id, status, status === 'succeeded' ? { upscaled_url: 'https://x.test/r.png', energy_used: 2 } : null],
  );
  return id;
}

describe('run webhooks', () => {
  const rx = receiver([500]);
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    port = await rx.listen();
    t = await createTestApp({ FETCH_ALLOW_PRIVATE_HOSTS: `127.0.0.1:${port}`, WEBHOOK_RETRY_BASE_SECONDS: '1' });
  });
  afterAll(async () => {
    await t.close();
    await rx.close();
  });

  it('are signed with the owner secret, retried after a 500, and logged per attempt', async () => {
    const user = await registerUser(t);
    const jobId = await endedJob(t, user, `http://127.0.0.1:${port}/hooks`);
    const webhooks = t.ctx.services.webhooks;

    expect(await webhooks.dispatchDue()).toBe(1);
    expect(rx.got).toHaveLength(1);
    let log = (await t.app.inject({ method: 'GET', url: '/api/webhook-deliveries', headers: user.headers })).json();
    expect(log.items[0]).toMatchObject({ job_id: jobId, status: 'pending', attempts: 1, last_status: 500 });

    // Not due before its backoff; due after it.
    expect(await webhooks.dispatchDue()).toBe(0);
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await webhooks.dispatchDue()).toBe(1);
    expect(rx.got).toHaveLength(2);

    log = (await t.app.inject({ method: 'GET', url: '/api/webhook-deliveries', headers: user.headers })).json();
    expect(log.items[0]).toMatchObject({ status: 'delivered', attempts: 2, last_status: 200 });
    expect(log.items[0].log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);

    const { secret, header } = (await t.app.inject({ method: 'GET', url: '/api/webhooks/secret', headers: user.headers })).json();
    expect(header).toBe(SIGNATURE_HEADER);
    for (const { headers, body } of rx.got) {
      expect(verifySignature(secret, body, String(headers[SIGNATURE_HEADER]))).toBe(true);
      expect(verifySignature(`${secret}x`, body, String(headers[SIGNATURE_HEADER]))).toBe(false);
      expect(verifySignature(secret, body.replace('succeeded', 'failed'), String(headers[SIGNATURE_HEADER]))).toBe(false);
      const event = webhookEventSchema.parse(JSON.parse(body));
      expect(event).toMatchObject({ type: 'job.succeeded', data: { job_id: jobId, status: 'succeeded', energy_used: 2 } });
    }
    // The same delivery id on every attempt, so receivers can drop repeats.
    expect(new Set(rx.got.map((g) => JSON.parse(g.body).id)).size).toBe(1);

    const forged = await t.app.inject({ method: 'GET', url: '/api/webhook-deliveries?cursor=bm90LWEtY3Vyc29y', headers: user.headers });
    expect(forged.statusCode).toBe(400);

    const other = await registerUser(t);
    const foreign = (await t.app.inject({ method: 'GET', url: '/api/webhook-deliveries', headers: other.headers })).json();
    expect(foreign.items).toHaveLength(0);
  });

  it('announce a run once, however endings and dispatchers race', async () => {
    rx.got.length = 0;
    const user = await registerUser(t);
    const [{ id }] = await t.db.query<{ id: string }>(
      `INSERT INTO tool_jobs (user_id, tool, status, input, cost, deadline_at, webhook_url)
       VALUES ($1, 'fal-upscaler', 'running', '{}', 2, now() + interval '1 hour', $2) RETURNING id`,
      [user.id, `http://127.0.0.1:${port}/once`],
    );
    const end = (status: string) =>
      t.db.query(`UPDATE tool_jobs SET status = $2, finished_at = now() WHERE id = $1 AND status IN ('queued', 'running')`, [id, status]);
    await Promise.all([end('succeeded'), end('failed'), end('canceled')]);
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE job_id = $1', [id]);
    expect(n).toBe(1);

    const webhooks = t.ctx.services.webhooks;
    await Promise.all(Array.from({ length: 6 }, () => webhooks.dispatchDue()));
    expect(rx.got.filter((g) => JSON.parse(g.body).data.job_id === id)).toHaveLength(1);
  });

  it('are never sent to a private address', async () => {
    const closed = await createTestApp({ WEBHOOK_RETRY_BASE_SECONDS: '1' });
    try {
      rx.got.length = 0;
      const user = await registerUser(closed);
      await expect(closed.ctx.services.webhooks.assertDeliverable(`http://127.0.0.1:${port}/x`)).rejects.toThrow(/private or local/);
      await expect(closed.ctx.services.webhooks.assertDeliverable('http://[::ffff:127.0.0.1]/x')).rejects.toThrow(/private or local/);
      await expect(closed.ctx.services.webhooks.assertDeliverable('ftp://example.com/x')).rejects.toThrow();
      await endedJob(closed, user, `http://127.0.0.1:${port}/private`);
      expect(await closed.ctx.services.webhooks.dispatchDue()).toBe(1);
      expect(rx.got).toHaveLength(0);
      const log = (await closed.app.inject({ method: 'GET', url: '/api/webhook-deliveries', headers: user.headers })).json();
      expect(log.items[0].last_error).toMatch(/private or local/);
    } finally {
      await closed.close();
    }
  });

  it('come from real runs: the URL is checked before any charge, and the run ends in one signed POST', async () => {
    const { createFakeAiProvider } = await import('./helpers/fake-ai.js');
    const { createMemoryMedia } = await import('./helpers/memory-media.js');
    const runs = await createTestApp(
      { FETCH_ALLOW_PRIVATE_HOSTS: `127.0.0.1:${port}`, WEBHOOK_RETRY_BASE_SECONDS: '1' },
      { provider: createFakeAiProvider({ delayMs: 5 }), media: createMemoryMedia() },
    );
    try {
      rx.got.length = 0;
      const user = await registerUser(runs, { energy: 10 });
      const refused = await runs.app.inject({
        method: 'POST',
        url: '/functions/v1/fal-upscaler',
        headers: user.headers,
        payload: { image_url: 'https://example.com/a.png', webhook_url: 'http://169.254.169.254/latest' },
      });
      expect(refused.statusCode).toBe(400);
      const [{ n }] = await runs.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tool_jobs WHERE user_id = $1', [user.id]);
      expect(n).toBe(0);

      const ok = await runs.app.inject({
        method: 'POST',
        url: '/functions/v1/fal-upscaler',
        headers: user.headers,
        payload: { image_url: 'https://example.com/a.png', webhook_url: `http://127.0.0.1:${port}/real` },
      });
      expect(ok.statusCode).toBe(200);
      await runs.ctx.services.webhooks.dispatchDue();
      expect(rx.got).toHaveLength(1);
      const event = JSON.parse(rx.got[0].body);
      expect(event).toMatchObject({ type: 'job.succeeded', data: { job_id: ok.json().job_id, tool: 'fal-upscaler' } });
      expect(event.data.result).toMatchObject({ model: 'fake-fal-upscaler' });
      expect(event.data.library_item_id).toBeTruthy();
    } finally {
      await runs.close();
    }
  });
});
