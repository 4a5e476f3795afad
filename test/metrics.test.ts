import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/http/app.js';
import { createMetricsRegistry, serveMetrics } from '../src/server/observability/metrics.js';
import { createTestApp, registerUser, type TestApp } from './helpers/test-app.js';
import { APP_VERSION } from '../src/server/version.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';

/** The site's own origin (PUBLIC_URL's default): checkout redirects must point here. */
const SITE = 'http://127.0.0.1:3000';
const TOKEN = 'metrics-token-for-tests-0123456789';
const provider = createFakeAiProvider({ delayMs: 40 });
let t: TestApp;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN, SIGNIN_PER_ACCOUNT_PER_MINUTE: '2' }, { provider });
  const tools = t.ctx.services.registry.list.map((tool) => tool.info);
  app = await buildApp(t.ctx, { metrics: createMetricsRegistry({ db: t.db, realtime: t.ctx.services.realtime, tools }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}, 180_000);
afterAll(async () => {
  await app?.close();
  await t?.close();
});

/** Sample values of one series, keyed by its label set as printed. */
async function scrape(): Promise<Map<string, number>> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  const samples = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}
const value = (s: Map<string, number>, key: string) => s.get(key) ?? 0;

async function uploadPng(userId: string): Promise<string> {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 9, g: 99, b: 199 } } }).png().toBuffer();
  const item = await t.ctx.services.library.uploads.upload(userId, { stream: Readable.from([png]), fileName: 'in.png', declaredType: 'image/png', kindHint: 'image' });
  return item.id;
}

describe('GET /metrics', () => {
  it('needs the bearer token', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token-xx' } })).status).toBe(401);
  });

  it('is absent without METRICS_TOKEN', async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  }, 120_000);

  it('moves after real actions: a tool run, a failed run refunded, a purchase, an upload, an open stream', async () => {
    const before = await scrape();
    const user = await registerUser(t, { energy: 20 });
    const image = await uploadPng(user.id);

    // A successful run and a failed (refunded) one, through the HTTP API.
    const ok = await app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: user.headers, payload: { image_url: image, scale: 2 } });
    expect(ok.statusCode, ok.body).toBe(200);
    provider.behaviour.failWith = 'The model refused this image.';
    const bad = await app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: user.headers, payload: { image_url: image, scale: 2 } });
    provider.behaviour.failWith = undefined;
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    const [{ cost }] = await t.db.query<{ cost: number }>('SELECT cost FROM tool_jobs WHERE user_id = $1 LIMIT 1', [user.id]);

    // A purchase on the built-in test checkout.
    const checkout = await app.inject({
      method: 'POST',
      url: '/functions/v1/stripe-checkout',
      headers: user.headers,
      payload: { price_id: 'price_pixelrush_starter', mode: 'payment', success_url: `${SITE}/success`, cancel_url: `${SITE}/dashboard` },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const { session_id } = checkout.json() as { session_id: string };
    const paid = await app.inject({
      method: 'POST',
      url: `/checkout/test/${session_id}/pay`,
      headers: { ...user.headers, 'content-type': 'application/x-www-form-urlencoded', origin: SITE },
      payload: 'card_number=4242+4242+4242+4242&expiry=12%2F34&cvc=123&name=Ann',
    });
    expect(paid.statusCode).toBe(303);
    const [{ bought }] = await t.db.query<{ bought: number }>(
      "SELECT COALESCE(sum(amount), 0)::int AS bought FROM energy_transactions WHERE user_id = $1 AND type = 'purchase'",
      [user.id],
    );
    expect(bought).toBeGreaterThan(0);

    // An open live-update stream on this process.
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${base}/api/events`, { headers: user.headers }, resolve).on('error', reject);
    });
    await new Promise((r) => stream.once('data', r));

    const after = await scrape();
    const delta = (key: string) => value(after, key) - value(before, key);
    expect(delta('pixelrush_energy_spent_total')).toBe(2 * cost);
    expect(delta('pixelrush_energy_refunded_total')).toBe(cost);
    expect(delta('pixelrush_refunds_total')).toBe(1);
    expect(delta('pixelrush_energy_purchased_total')).toBe(bought);
    expect(delta('pixelrush_tool_job_duration_seconds_count{tool="fal-upscaler",outcome="succeeded"}')).toBe(1);
    expect(delta('pixelrush_tool_job_duration_seconds_count{tool="fal-upscaler",outcome="failed"}')).toBe(1);
    // Failures by tool and reason (the run's error code), and ENERGY by tool, from the database.
    const [{ error_code }] = await t.db.query<{ error_code: string }>("SELECT error_code FROM tool_jobs WHERE user_id = $1 AND status = 'failed'", [user.id]);
    expect(error_code).toBe('provider_refused');
    expect(delta('pixelrush_tool_runs_failed_total{tool="fal-upscaler",reason="provider_refused"}')).toBe(1);
    expect(delta('pixelrush_tool_runs_ended_total{tool="fal-upscaler",status="failed"}')).toBe(1);
    expect(delta('pixelrush_tool_runs_ended_total{tool="fal-upscaler",status="succeeded"}')).toBe(1);
    expect(delta('pixelrush_energy_spent_by_tool_total{tool="fal-upscaler"}')).toBe(2 * cost);
    expect(delta('pixelrush_energy_refunded_by_tool_total{tool="fal-upscaler"}')).toBe(cost);
    expect(delta('pixelrush_storage_bytes{kind="image"}')).toBeGreaterThan(0);
    expect(value(after, 'pixelrush_sse_connections')).toBe(1);
    expect(delta('pixelrush_http_request_duration_seconds_count{method="POST",route="/functions/v1/fal-upscaler",status_code="200"}')).toBe(1);
    // Route patterns, never raw paths with ids in them.
    expect([...after.keys()].some((k) => k.includes(session_id))).toBe(false);
    expect([...after.keys()].some((k) => k.includes('route="/checkout/test/:'))).toBe(true);

    stream.destroy();
    await expect.poll(async () => value(await scrape(), 'pixelrush_sse_connections'), { timeout: 5_000 }).toBe(0);
  }, 120_000);

  it('shows queue depth from the database, as any node of a cluster would', async () => {
    const user = await registerUser(t, { energy: 10 });
    const [{ id }] = await t.db.query<{ id: string }>(
      `INSERT INTO tool_jobs (user_id, tool, input, cost, status, deadline_at)
       VALUES ($1, 'fal-image-restore', '{}'::jsonb, 0, 'queued', now() + interval '1 hour') RETURNING id`,
      [user.id],
    );
    try {
      expect(value(await scrape(), 'pixelrush_tool_jobs{tool="fal-image-restore",status="queued"}')).toBe(1);
    } finally {
      await t.db.query('DELETE FROM tool_jobs WHERE id = $1', [id]);
    }
    expect(value(await scrape(), 'pixelrush_tool_jobs{tool="fal-image-restore",status="queued"}')).toBe(0);
  }, 60_000);

  it('says which build runs, and every tool has a queue-depth series while nothing waits', async () => {
    const s = await scrape();
    const build = [...s.keys()].find((k) => k.startsWith('pixelrush_build_info{'));
    expect(build).toContain(`version="${APP_VERSION}"`);
    expect(s.get(build!)).toBe(1);
    for (const tool of t.ctx.services.registry.list) {
      for (const status of ['queued', 'running']) {
        const key = `pixelrush_tool_jobs{tool="${tool.info.endpoint}",status="${status}"}`;
        expect(s.has(key), key).toBe(true);
      }
      expect(s.has(`pixelrush_energy_spent_by_tool_total{tool="${tool.info.endpoint}"}`)).toBe(true);
    }
    expect(s.get('pixelrush_oldest_queued_job_age_seconds')).toBe(0);
  });

  it('the age of the oldest queued run', async () => {
    const user = await registerUser(t, { energy: 10 });
    const [{ id }] = await t.db.query<{ id: string }>(
      `INSERT INTO tool_jobs (user_id, tool, input, cost, status, deadline_at, created_at)
       VALUES ($1, 'fal-upscaler', '{}'::jsonb, 0, 'queued', now() + interval '1 hour', now() - interval '95 seconds') RETURNING id`,
      [user.id],
    );
    try {
      const age = value(await scrape(), 'pixelrush_oldest_queued_job_age_seconds');
      expect(age).toBeGreaterThanOrEqual(95);
      expect(age).toBeLessThan(95 + 60);
    } finally {
      await t.db.query('DELETE FROM tool_jobs WHERE id = $1', [id]);
    }
    expect(value(await scrape(), 'pixelrush_oldest_queued_job_age_seconds')).toBe(0);
  }, 60_000);

  it('webhook and mail deliveries that failed', async () => {
    const before = await scrape();
    const user = await registerUser(t, { energy: 10 });
    const [{ id: jobId }] = await t.db.query<{ id: string }>(
      `INSERT INTO tool_jobs (user_id, tool, input, cost, status, deadline_at, finished_at)
       VALUES ($1, 'fal-upscaler', '{}'::jsonb, 0, 'canceled', now(), now()) RETURNING id`,
      [user.id],
    );
    const [{ id: delivery }] = await t.db.query<{ id: string }>(
      `INSERT INTO webhook_deliveries (job_id, user_id, url, event, status, attempts) VALUES ($1, $2, 'https://hooks.example/x', 'job.canceled', 'failed', 2) RETURNING id`,
      [jobId, user.id],
    );
    await t.db.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt, status_code, error, duration_ms) VALUES ($1, 1, 500, NULL, 10), ($1, 2, NULL, 'connect ECONNREFUSED', 5)`,
      [delivery],
    );
    await t.db.query(
      `INSERT INTO mail_messages (user_id, to_address, template, subject, transport, status, attempts, error)
       VALUES ($1, 'a@example.com', 'verify', 'Confirm', 'smtp', 'failed', 5, 'connect ECONNREFUSED'),
              ($1, 'a@example.com', 'verify', 'Confirm', 'smtp', 'queued', 1, 'connect ECONNREFUSED')`,
      [user.id],
    );
    const after = await scrape();
    const delta = (key: string) => value(after, key) - value(before, key);
    expect(delta('pixelrush_webhook_deliveries_failed_total')).toBe(1);
    expect(delta('pixelrush_webhook_attempts_failed_total')).toBe(2);
    expect(delta('pixelrush_mail_failed_total')).toBe(1);
    expect(delta('pixelrush_mail_retrying')).toBe(1);
  }, 60_000);

  it('payment webhook events refused, and requests refused by a limiter', async () => {
    const before = await scrape();
    const hook = await app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' }, payload: '{"id":"evt_forged"}' });
    expect(hook.statusCode).toBe(400);
    const user = await registerUser(t);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email: user.email, password: 'wrong-password' }, remoteAddress: '10.77.0.1' });
      statuses.push(res.statusCode);
    }
    expect(statuses).toContain(429);
    const after = await scrape();
    const delta = (key: string) => value(after, key) - value(before, key);
    expect(delta('pixelrush_payment_webhook_errors_total{status_code="400"}')).toBe(1);
    expect(delta('pixelrush_limiter_refusals_total{route="/api/auth/sign-in/email"}')).toBe(statuses.filter((s) => s === 429).length);
  }, 60_000);

  it('the example dashboard and alert rules in docs/ name only series the app serves', async () => {
    // Every declared series (a counter nothing has counted yet has a TYPE line but no sample).
    const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const names = new Set<string>();
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      names.add(name!);
      if (type === 'histogram') for (const part of ['_bucket', '_sum', '_count']) names.add(name! + part);
    }
    const docs = ['docs/monitoring/grafana-dashboard.json', 'docs/monitoring/alerts.yml'].map((f) => fs.readFileSync(f, 'utf8'));
    JSON.parse(docs[0]!);
    const used = new Set(docs.flatMap((text) => text.match(/pixelrush_[a-z_]+/g) ?? []));
    expect(used.size).toBeGreaterThan(10);
    const missing = [...used].filter((name) => !names.has(name));
    expect(missing).toEqual([]);
    // The three the brief names: the oldest queued run, the failure rate, payment webhook errors.
    for (const alert of ['PixelRushOldestQueuedRun', 'PixelRushToolFailureRate', 'PixelRushPaymentWebhookErrors']) expect(docs[1]).toContain(`alert: ${alert}`);
  });

  it('can be served on a listener of its own (METRICS_PORT)', async () => {
    const registry = createMetricsRegistry({ db: t.db });
    const server = await serveMetrics(registry, { port: 0, host: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await fetch(`${url}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('pixelrush_energy_spent_total');
      expect((await fetch(`${url}/other`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
