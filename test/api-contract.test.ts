import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { createMemoryMedia } from './helpers/memory-media.js';
import { png, upload } from './library.fixtures.js';

/**
 * The OpenAPI document is the contract: routes declare what they answer, and
 * real answers are checked against it, so an undeclared field or success
 * status fails here rather than in a client.
 */
let t: TestApp;
let user: TestUser;
let admin: TestUser;

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  parameters?: { name: string; in: 'path' | 'query' | 'header' }[];
  requestBody?: { content?: Record<string, unknown> };
}
type Doc = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } };

beforeAll(async () => {
  t = await createTestApp({}, { provider: createFakeAiProvider({ delayMs: 0 }), media: createMemoryMedia() });
  user = await registerUser(t, { energy: 100 });
  admin = await registerUser(t, { role: 'admin' });
});
afterAll(() => t.close());

const doc = () => t.app.swagger() as unknown as Doc;

/** Answers that are not JSON (streams, files, redirects, pages): nothing to declare as a JSON schema. */
const NOT_JSON = [
  'GET /api/events',
  'GET /api/library/{id}/download',
  'GET /api/account/export',
  /^GET \/api\/batches\/\{id\}\/download/,
  /^(GET|POST) \/checkout\/test\//,
  /^GET \/dev\/outbox/,
  'GET /api/purchases/{id}/receipt',
];

const operations = () =>
  Object.entries(doc().paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })));

const successSchemas = (op: Operation) =>
  Object.entries(op.responses ?? {}).filter(([status, r]) => status.startsWith('2') && r.content?.['application/json']?.schema);

describe('every route declares its answers', () => {
  it('each JSON route has a response schema for its success status', () => {
    const missing = operations()
      .filter(({ id }) => !NOT_JSON.some((p) => (typeof p === 'string' ? p === id : p.test(id))))
      .filter(({ op }) => successSchemas(op).length === 0)
      .map(({ id }) => id);
    expect(missing, 'routes without a response schema').toEqual([]);
  });
});

/**
 * The document's schema as zod reads it: `$ref`s to components resolved, and
 * `uri-reference` (zod's converter knows no such format) checked as a string.
 */
function asJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const { $ref, ...rest } = node as Record<string, unknown>;
  if (typeof $ref === 'string') return asJsonSchema(doc().components?.schemas?.[$ref.replace('#/components/schemas/', '')]);
  if (rest.format === 'uri-reference') delete rest.format;
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, asJsonSchema(v)]));
}

/** The declared schema of the route an answer came from, by method, path template and status. */
function declaredSchema(method: string, url: string, status: number): { route: string; schema?: z.ZodType; declaresAny: boolean } {
  const path = url.split('?')[0]!;
  for (const [template, ops] of Object.entries(doc().paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const op = ops[method.toLowerCase()];
    if (!op || !pattern.test(path)) continue;
    const json = op.responses?.[String(status)]?.content?.['application/json']?.schema;
    return { route: `${method} ${template}`, schema: json ? z.fromJSONSchema(asJsonSchema(json) as never) : undefined, declaresAny: successSchemas(op).length > 0 };
  }
  throw new Error(`no route in the document for ${method} ${path}`);
}

/** Error answers seen, by route: every one must be declared (the probe below provokes the rest). */
const refusals = new Map<string, Set<number>>();

/** app.inject, plus: a success answer of a route that declares its answers must be one of them, exactly. */
/** Routes whose success answer a test here has parsed with its declared schema. */
const answered = new Set<string>();

async function call(opts: InjectOptions & { url: string }, app: TestApp = t): Promise<LightMyRequestResponse> {
  return checked(opts.method ?? 'GET', opts.url, await app.app.inject(opts));
}

/** The same check for an answer a fixture already fetched (multipart uploads). */
function checked(method: string, url: string, res: LightMyRequestResponse): LightMyRequestResponse {
  const { route, schema, declaresAny } = declaredSchema(method, url, res.statusCode);
  if (res.statusCode < 300 && declaresAny) {
    expect(schema, `${route} answered an undeclared status ${res.statusCode}`).toBeDefined();
    const parsed = schema!.safeParse(res.json());
    expect(parsed.success ? [] : parsed.error.issues, `${route} ${res.statusCode} answer`).toEqual([]);
    answered.add(route);
  }
  if (res.statusCode >= 400) {
    // A refusal is declared, with a schema that its body (our error schema) fits.
    expect(schema, `${route} answered an undeclared error ${res.statusCode}: ${res.body.slice(0, 200)}`).toBeDefined();
    const parsed = schema!.safeParse(res.json());
    expect(parsed.success ? [] : parsed.error.issues, `${route} ${res.statusCode} error answer`).toEqual([]);
    expect(res.json(), `${route} ${res.statusCode}`).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    if (!refusals.has(route)) refusals.set(route, new Set());
    refusals.get(route)!.add(res.statusCode);
  }
  return res;
}

describe('real answers match their declared schemas', () => {
  it('the main user flows: library, a tool run, jobs, invites and referrals, keys, webhooks, admin lists', async () => {
    const as = (u: TestUser) => ({ headers: u.headers });

    const uploaded = await upload(t, user, { filename: 'a.png', contentType: 'image/png', body: await png(8, 8) });
    expect(uploaded.statusCode).toBe(201);
    const item = uploaded.json() as { id: string };
    await call({ url: `/api/library/${item.id}`, ...as(user) });
    await call({ url: '/api/library?kind=image', ...as(user) });
    await call({ url: '/api/library/counts', ...as(user) });

    const run = await call({
      method: 'POST',
      url: '/functions/v1/fal-upscaler',
      headers: { ...user.headers, prefer: 'respond-async' },
      payload: { image_url: item.id, scale: 2 },
    });
    expect(run.statusCode).toBe(202);
    const { job_id } = run.json() as { job_id: string };
    await expect.poll(async () => ((await call({ url: `/api/jobs/${job_id}`, ...as(user) })).json() as { status: string }).status).toBe('succeeded');
    await call({ method: 'POST', url: '/functions/v1/fal-upscaler', ...as(user), payload: { image_url: item.id, scale: 2 } });
    await call({ url: '/api/jobs?limit=1', ...as(user) });

    const invite = await call({ method: 'POST', url: '/api/invites', ...as(user), payload: {} });
    await call({ url: '/api/invites', ...as(user) });
    await call({ method: 'POST', url: `/api/invites/${(invite.json() as { invite: { id: string } }).invite.id}/deactivate`, ...as(user) });
    await call({ url: '/api/referrals', ...as(user) });

    const key = await call({ method: 'POST', url: '/api/keys', ...as(user), payload: { name: 'contract' } });
    await call({ url: '/api/keys', ...as(user) });
    await call({ method: 'DELETE', url: `/api/keys/${(key.json() as { key: { id: string } }).key.id}`, ...as(user) });
    await call({ url: '/api/webhook-deliveries', ...as(user) });

    await call({ url: '/api/admin/invites', ...as(admin) });
    await call({ url: '/api/admin/referrals', ...as(admin) });
    await call({ url: `/api/admin/users?query=${encodeURIComponent(user.email)}`, ...as(admin) });
    await call({ url: '/api/admin/users?limit=1', ...as(admin) });
  });

  it('ledger, prices, plans, bundles, the referral switch and admin operations', async () => {
    const as = (u: TestUser) => ({ headers: u.headers });
    const target = await registerUser(t);

    await call({ url: '/api/pricing', ...as(user) });
    await call({ url: '/api/pricing', ...as(admin) });
    await call({ url: '/api/plans' });
    await call({ url: '/api/plans?all=1', ...as(admin) });
    await call({ url: '/api/bundles' });

    const referral = await call({ url: '/api/settings/referral' });
    await call({ method: 'PUT', url: '/api/settings/referral', ...as(admin), payload: referral.json() });
    const welcome = await call({ url: '/api/admin/welcome-grant', ...as(admin) });
    await call({ method: 'PUT', url: '/api/admin/welcome-grant', ...as(admin), payload: welcome.json() });
    // Saving nothing new still answers the result shape, and changes no price another test relies on.
    expect((await call({ method: 'POST', url: '/functions/v1/admin-update-pricing', ...as(admin), payload: {} })).statusCode).toBe(200);

    expect((await call({ method: 'POST', url: `/api/admin/users/${target.id}/grant`, ...as(admin), payload: { amount: 3, reason: 'contract' } })).statusCode).toBe(200);
    expect((await call({ method: 'POST', url: `/api/admin/users/${target.id}/role`, ...as(admin), payload: { role: 'vip' } })).statusCode).toBe(200);
    const parked = await registerUser(t);
    expect((await call({ method: 'POST', url: `/api/admin/users/${parked.id}/suspend`, ...as(admin), payload: { reason: 'contract' } })).statusCode).toBe(200);
    expect((await call({ method: 'POST', url: `/api/admin/users/${admin.id}/suspend`, ...as(admin), payload: {} })).statusCode).toBe(409);
    expect((await call({ method: 'POST', url: `/api/admin/users/${parked.id}/reinstate`, ...as(admin) })).statusCode).toBe(200);
    const history = await call({ url: '/api/transactions?limit=1', ...as(target) });
    expect((history.json() as { items: unknown[] }).items).toHaveLength(1);
    await call({ url: '/api/transactions', ...as(user) });

    await call({ url: '/api/admin/summary', ...as(admin) });
    const audit = await call({ url: '/api/admin/audit?limit=2', ...as(admin) });
    expect((audit.json() as { items: unknown[] }).items.length).toBeGreaterThan(0);

    // Admin > Jobs: a held run cancelled from the console, then retried from it.
    const owner = await registerUser(t, { energy: 10 });
    const fake = t.ctx.services.ai.providerFor('fal-upscaler') as ReturnType<typeof createFakeAiProvider>;
    fake.behaviour.delayMs = 5_000;
    let held: string;
    try {
      const run = await call({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: { ...owner.headers, prefer: 'respond-async' }, payload: { image_url: 'https://x.test/console.png', scale: 2 } });
      held = (run.json() as { job_id: string }).job_id;
      expect((await call({ method: 'POST', url: `/api/admin/jobs/${held}/cancel`, ...as(admin) })).statusCode).toBe(200);
    } finally {
      fake.behaviour.delayMs = 0;
    }
    expect((await call({ method: 'POST', url: `/api/admin/jobs/${held}/cancel`, ...as(admin) })).statusCode).toBe(409);
    expect((await call({ method: 'POST', url: `/api/admin/jobs/${held}/retry`, ...as(admin) })).statusCode).toBe(200);
    expect((await call({ url: `/api/admin/jobs?status=canceled&user=${owner.id}`, ...as(admin) })).json()).toMatchObject({ items: [{ id: held }] });
    await call({ url: '/api/admin/jobs/failure-rates', ...as(admin) });
    await call({ url: '/api/admin/charts?days=7', ...as(admin) });
  });

  it('payments and tool results: checkout, success page, subscription, Stripe webhook, tools info, run results and retries', async () => {
    const buyer = await registerUser(t, { energy: 100 });
    const as = { headers: buyer.headers };

    // The built-in test checkout stands in for Stripe here; both answer the same shapes.
    expect((await call({ url: '/api/payments/config' })).json()).toEqual({ mode: 'test' });
    const origin = new URL(t.ctx.config.publicUrl).origin;
    const started = await call({
      method: 'POST',
      url: '/functions/v1/stripe-checkout',
      ...as,
      payload: { price_id: 'price_pixelrush_starter', mode: 'payment', success_url: `${origin}/success`, cancel_url: `${origin}/dashboard` },
    });
    expect(started.statusCode).toBe(200);
    const { session_id } = started.json() as { session_id: string };
    expect((await call({ url: `/api/checkout/sessions/${session_id}`, ...as })).json()).toMatchObject({ status: 'pending', energy_added: 0 });
    const paid = await t.app.inject({
      method: 'POST',
      url: `/checkout/test/${session_id}/pay`,
      headers: { ...buyer.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'card_number=4242424242424242&expiry=12%2F34&cvc=123',
    });
    expect(paid.statusCode).toBe(303);
    expect((await call({ url: `/api/checkout/sessions/${session_id}`, ...as })).json()).toEqual({
      status: 'fulfilled',
      plan_name: 'Starter',
      energy_added: 50,
      amount_cents: 1000,
    });

    // Purchase history, and the admin's list, detail and refund (decision 028).
    const purchases = (await call({ url: '/api/purchases', ...as })).json() as { items: { id: string; status: string }[] };
    expect(purchases.items).toMatchObject([{ id: session_id, status: 'paid' }]);
    expect((await call({ url: `/api/admin/purchases?query=${session_id}`, headers: admin.headers })).json().items).toHaveLength(1);
    expect((await call({ method: 'POST', url: `/api/admin/purchases/${session_id}/refund`, headers: admin.headers, payload: { amount_cents: 100 } })).json()).toEqual({
      purchase_id: session_id,
      refunded_cents: 100,
    });
    expect((await call({ url: `/api/admin/purchases/${session_id}`, headers: admin.headers })).json()).toMatchObject({ status: 'refunded', refundable_cents: 900 });

    expect((await call({ url: '/api/subscription', ...as })).json()).toEqual({ subscription: null });
    const { TestCheckoutGateway } = await import('../src/server/providers/payments/test-gateway.js');
    const event = new TestCheckoutGateway(t.db, t.ctx.config.APP_SECRET).signEvent('customer.subscription.created', {
      id: `sub_contract_${buyer.id}`,
      status: 'active',
      metadata: { userId: buyer.id },
      items: { data: [{ price: { id: 'price_pixelrush_pro' } }] },
    });
    const ack = await call({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      payload: event.payload,
    });
    expect(ack.json()).toEqual({ received: true, type: 'customer.subscription.created' });
    expect((await call({ url: '/api/subscription', ...as })).json()).toEqual({
      subscription: { price_id: 'price_pixelrush_pro', subscription_status: 'active', plan_name: 'Pro', is_active: true },
    });

    expect((await call({ url: '/api/tools/info', ...as })).json()).toMatchObject({ providers: { 'fal-upscaler': 'local' } });

    // A held run: its result is 202 while it runs and 422 once cancelled; a retry answers 202.
    const fake = t.ctx.services.ai.providerFor('fal-upscaler') as ReturnType<typeof createFakeAiProvider>;
    fake.behaviour.delayMs = 5_000;
    let held: string;
    try {
      const run = await call({
        method: 'POST',
        url: '/functions/v1/fal-upscaler',
        headers: { ...buyer.headers, prefer: 'respond-async' },
        payload: { image_url: 'https://x.test/held.png', scale: 2 },
      });
      held = (run.json() as { job_id: string }).job_id;
      expect((await call({ url: `/api/jobs/${held}/result`, ...as })).statusCode).toBe(202);
      expect((await call({ method: 'POST', url: `/api/jobs/${held}/cancel`, ...as })).statusCode).toBe(200);
    } finally {
      fake.behaviour.delayMs = 0;
    }
    const cancelled = await call({ url: `/api/jobs/${held}/result`, ...as });
    expect(cancelled.statusCode).toBe(422);
    expect(cancelled.json()).toMatchObject({ code: 'tool_failed', job_id: held, status: 'canceled', refunded: true, energy_refunded: 2 });
    const retried = await call({ method: 'POST', url: `/api/jobs/${held}/retry`, ...as });
    expect(retried.statusCode).toBe(202);
    const retriedId = (retried.json() as { job_id: string }).job_id;
    await expect.poll(async () => ((await call({ url: `/api/jobs/${retriedId}`, ...as })).json() as { status: string }).status).toBe('succeeded');
    expect((await call({ url: `/api/jobs/${retriedId}/result`, ...as })).statusCode).toBe(200);

    // Each tool's result answers every field of its own call: no other tool's schema trims it.
    const bodies: Record<string, object> = {
      'fal-image-editor': { image_url: 'https://x.test/e.png', prompt: 'make it brighter' },
      'fal-image-restore': { image_url: 'https://x.test/r.png', backbone: 'rdn' },
      'fal-upscaler': { image_url: 'https://x.test/u.png', scale: 4 },
      'fal-image-to-video': { image_url: 'https://x.test/v.png', prompt: 'zoom in slowly' },
      'fal-video-upscaler': { video_url: 'https://x.test/v.mp4', scale: 2 },
    };
    for (const [endpoint, payload] of Object.entries(bodies)) {
      const answer = await call({ method: 'POST', url: `/functions/v1/${endpoint}`, ...as, payload });
      expect(answer.statusCode, endpoint).toBe(200);
      const result = await call({ url: `/api/jobs/${(answer.json() as { job_id: string }).job_id}/result`, ...as });
      expect(result.statusCode, endpoint).toBe(200);
      expect(result.json(), endpoint).toEqual(answer.json());
    }
  });

  it('health and readiness, sign-up and sign-in, the profile and role checks, sessions, password change, sign-out', async () => {
    expect((await call({ url: '/api/health' })).statusCode).toBe(200);
    expect((await call({ url: '/api/ready' })).statusCode).toBe(200);

    const email = `contract-auth-${Date.now()}@example.com`;
    const bearer = (res: LightMyRequestResponse) => ({ authorization: `Bearer ${(res.json() as { token: string }).token}` });
    const signedUp = await call({ method: 'POST', url: '/api/auth/sign-up/email', payload: { name: 'Contract', email, password: 'first-pass' } });
    expect(signedUp.statusCode).toBe(200);
    const mine = bearer(signedUp);
    const signIn = (password: string) => call({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password } });
    expect((await signIn('first-pass')).statusCode).toBe(200);

    expect((await call({ url: '/api/me', headers: mine })).statusCode).toBe(200);
    await call({ method: 'POST', url: '/functions/v1/check-vip-status', headers: mine });
    await call({ method: 'POST', url: '/functions/v1/check-admin-status', headers: mine });
    await call({ method: 'POST', url: '/functions/v1/check-admin-status', headers: admin.headers });

    const { sessions } = (await call({ url: '/api/account/sessions', headers: mine })).json() as { sessions: { id: string; current: boolean }[] };
    const other = sessions.find((s) => !s.current)!;
    expect((await call({ method: 'DELETE', url: `/api/account/sessions/${other.id}`, headers: mine })).statusCode).toBe(200);
    await signIn('first-pass');
    expect((await call({ method: 'POST', url: '/api/account/sessions/end-others', headers: mine })).json()).toMatchObject({ ended: 1 });
    await signIn('first-pass');
    const changed = await call({ method: 'POST', url: '/api/account/password', headers: mine, payload: { currentPassword: 'first-pass', newPassword: 'second-pass', confirmPassword: 'second-pass' } });
    expect(changed.json()).toMatchObject({ ended: 1 });

    expect((await call({ method: 'POST', url: '/api/auth/sign-out', headers: bearer(await signIn('second-pass')) })).statusCode).toBe(200);
  });

});

/** Routes that need the real library (files, pending videos, batches) and mail: an app of their own. */
describe('real answers with the real library', () => {
  let lib: TestApp;
  let sourcePort: number;
  let source: http.Server;
  const libProvider = createFakeAiProvider({ delayMs: 0 });
  const on = (opts: InjectOptions & { url: string }) => call(opts, lib);

  beforeAll(async () => {
    const picture = await png(16, 16);
    source = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(picture));
    await new Promise<void>((r) => source.listen(0, '127.0.0.1', () => r()));
    sourcePort = (source.address() as AddressInfo).port;
    lib = await createTestApp(
      { DATA_DIR: `./.tmp/contract-${process.pid}`, FETCH_ALLOW_PRIVATE_HOSTS: `127.0.0.1:${sourcePort}` },
      { provider: libProvider, maxAttempts: 1 },
    );
  });
  afterAll(async () => {
    await lib?.close();
    source?.close();
  });

  it('library changes, estimates, batches, the webhook secret, account recovery and self-service', async () => {
    const owner = await registerUser(lib, { energy: 100, password: 'first-pass' });
    const as = { headers: owner.headers };
    

    const item = checked('POST', '/api/library/uploads', await upload(lib, owner, { filename: 'b.png', contentType: 'image/png', body: await png(12, 12) })).json() as { id: string };
    // A public link to it: made, listed, revoked.
    const link = await on({ method: 'POST', url: '/api/shares', ...as, payload: { item_id: item.id, expires_in: '1d' } });
    expect(link.statusCode).toBe(201);
    expect((await on({ url: '/api/shares', ...as })).statusCode).toBe(200);
    expect((await on({ method: 'DELETE', url: `/api/shares/${(link.json() as { id: string }).id}`, ...as })).statusCode).toBe(200);
    const remote = `http://127.0.0.1:${sourcePort}/remote.png`;
    expect((await on({ url: `/api/library/${item.id}/versions`, ...as })).statusCode).toBe(200);
    expect((await on({ method: 'POST', url: '/api/library/check-url', ...as, payload: { url: remote } })).statusCode).toBe(200);
    const imported = await on({ method: 'POST', url: '/api/library/import-url', ...as, payload: { url: remote } });
    expect(imported.statusCode).toBe(201);
    expect((await on({ method: 'DELETE', url: `/api/library/${(imported.json() as { id: string }).id}`, ...as })).statusCode).toBe(200);

    // A video that failed to generate, then retried from the library.
    libProvider.behaviour.failWith = 'Video generation failed';
    try {
      const failed = await on({ method: 'POST', url: '/functions/v1/fal-image-to-video', ...as, payload: { image_url: item.id, prompt: 'pan left' } });
      expect(failed.statusCode).toBe(422);
    } finally {
      libProvider.behaviour.failWith = undefined;
    }
    const videos = (await on({ url: '/api/library?kind=video', ...as })).json() as { items: { id: string; status: string }[] };
    const failedVideo = videos.items.find((v) => v.status === 'failed')!;
    expect((await on({ method: 'POST', url: `/api/library/${failedVideo.id}/retry`, ...as })).statusCode).toBe(200);

    await on({ url: '/api/tools/fal-upscaler/estimate', ...as });
    await on({ method: 'POST', url: '/api/tools/fal-image-editor/interpret', ...as, payload: { prompt: 'a bit brighter and blur the background' } });
    await on({ method: 'POST', url: '/api/tools/fal-image-editor/interpret', ...as, payload: { prompt: 'add fireworks' } });
    await on({ url: '/api/webhooks/secret', ...as });

    // Batches: one whose images all fail and are retried, one cancelled while it runs.
    const batchBody = { tool: 'fal-upscaler', settings: { scale: 2 }, items: [item.id] };
    await on({ method: 'POST', url: '/api/batches/estimate', ...as, payload: batchBody });
    libProvider.behaviour.failWith = 'Upscaling failed';
    let failedBatch: string;
    try {
      const created = await on({ method: 'POST', url: '/api/batches', ...as, payload: batchBody });
      expect(created.statusCode).toBe(201);
      failedBatch = (created.json() as { id: string }).id;
      await expect.poll(async () => ((await on({ url: `/api/batches/${failedBatch}`, ...as })).json() as { status: string }).status, { timeout: 20_000 }).toBe('done');
    } finally {
      libProvider.behaviour.failWith = undefined;
    }
    expect((await on({ method: 'POST', url: `/api/batches/${failedBatch}/retry-failed`, ...as })).statusCode).toBe(200);
    libProvider.behaviour.delayMs = 5_000;
    try {
      const running = (await on({ method: 'POST', url: '/api/batches', ...as, payload: batchBody })).json() as { id: string };
      expect((await on({ method: 'POST', url: `/api/batches/${running.id}/cancel`, ...as })).statusCode).toBe(200);
    } finally {
      libProvider.behaviour.delayMs = 0;
    }
    await on({ url: '/api/batches', ...as });

    // Recovery by e-mail: the links are read from the mail the app queued.
    const linkToken = async (template: string) => {
      let token: string | undefined;
      await expect
        .poll(async () => {
          const [mail] = await lib.db.query<{ text_body: string | null }>(
            'SELECT text_body FROM mail_messages WHERE user_id = $1 AND template = $2 ORDER BY created_at DESC LIMIT 1',
            [owner.id, template],
          );
          token = /token=([A-Za-z0-9_-]+)/.exec(mail?.text_body ?? '')?.[1];
          return token;
        })
        .toBeDefined();
      return token!;
    };
    await on({ url: '/api/account', ...as });
    expect((await on({ method: 'POST', url: '/api/account/verification', ...as })).statusCode).toBe(200);
    // Confirming is off by default, so the confirmation mail is asked of the service itself.
    await lib.ctx.services.account.sendVerification(owner.id);
    expect((await on({ method: 'POST', url: '/api/auth/verify-email', payload: { token: await linkToken('email_verification') } })).statusCode).toBe(200);
    expect((await on({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: owner.email } })).statusCode).toBe(200);
    const reset = await on({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: await linkToken('password_reset'), password: 'second-pass', confirmPassword: 'second-pass' },
    });
    expect(reset.statusCode).toBe(200);
    const signedIn = await on({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email: owner.email, password: 'second-pass' } });
    const mine = { headers: { authorization: `Bearer ${(signedIn.json() as { token: string }).token}` } };


    expect([200, 202]).toContain((await on({ method: 'POST', url: '/api/account/exports', ...mine })).statusCode);
    await on({ url: '/api/account/exports', ...mine });
    expect((await on({ method: 'POST', url: '/api/account/delete', ...mine, payload: { password: 'second-pass', confirm: 'DELETE' } })).statusCode).toBe(200);
  });

});

/**
 * Every operation, provoked the ways a real caller gets refused: no
 * credentials, another site's request on a session cookie, a non-admin on an
 * admin operation, ids that do not exist or are not ids, query values of the
 * wrong kind, a body that is not JSON, of the wrong type, too large or
 * invalid. Whatever each answers with a 4xx must be declared (checked()).
 * A caller of its own with no ENERGY, so nothing a probe reaches is changed.
 */
describe('every real error answer is declared', () => {
  it('the refusals of every operation, provoked', async () => {
    const prober = await registerUser(t);
    const cookie = { cookie: `pr_session=${prober.token}` };
    const probe = (method: string, url: string, opts: Omit<InjectOptions, 'method' | 'url'> = {}) => call({ method: method as 'GET', url, ...opts });
    const paths = doc().paths;
    for (const [template, ops] of Object.entries(paths)) {
      for (const [lower, op] of Object.entries(ops)) {
        const method = lower.toUpperCase();
        // Ending the prober's session would turn the probes after it into 401s only; a signed-in
        // event stream never ends (its refusals are provoked without credentials).
        const signsOut = ['POST /api/auth/sign-out', 'GET /api/events'].includes(`${method} ${template}`);
        const withIds = (id: string) => template.replace(/\{[^}]+\}/g, id);
        const url = withIds(randomUUID());
        const hasBody = method !== 'GET' && method !== 'DELETE';
        await probe(method, url);
        if (!signsOut) {
          await probe(method, url, { headers: prober.headers });
          if (template.includes('{')) await probe(method, withIds('not-an-id'), { headers: prober.headers });
          const query = (op.parameters ?? []).filter((p) => p.in === 'query');
          if (query.length) await probe(method, `${url}?${query.map((p) => `${p.name}=%FF%FE-not-valid`).join('&')}`, { headers: prober.headers });
        }
        if (hasBody) {
          await probe(method, url, { headers: { ...cookie, origin: 'https://elsewhere.example' }, payload: {} });
          if (!signsOut) {
            const as = { ...prober.headers, 'content-type': 'application/json' };
            await probe(method, url, { headers: as, payload: '{"not json' });
            await probe(method, url, { headers: { ...prober.headers, 'content-type': 'text/plain' }, payload: 'plain words' });
            await probe(method, url, { headers: as, payload: JSON.stringify({ pad: 'x'.repeat(1_100_000) }) });
            await probe(method, url, { headers: as, payload: JSON.stringify({ unexpected: [1, 2, 3], scale: 'big', amount: -5, email: 42 }) });
          }
        }
      }
    }
    // The refusals a broken request cannot reach: no ENERGY for a run or a batch, and a plan list
    // only admins see (by a caller the probes above did not bring to its rate limits).
    const broke = await registerUser(t);
    const image = (await upload(t, broke, { filename: 'p.png', contentType: 'image/png', body: await png(8, 8) })).json() as { id: string };
    for (const [endpoint, payload] of Object.entries({
      'fal-upscaler': { image_url: image.id, scale: 2 },
      'fal-image-to-video': { image_url: image.id, prompt: 'zoom in' },
    })) {
      expect((await probe('POST', `/functions/v1/${endpoint}`, { headers: broke.headers, payload })).statusCode).toBe(402);
    }
    expect((await probe('POST', '/api/batches', { headers: broke.headers, payload: { tool: 'fal-upscaler', settings: { scale: 2 }, items: [image.id] } })).statusCode).toBe(402);
    expect((await probe('GET', '/api/plans?all=1', { headers: broke.headers })).statusCode).toBe(403);
    expect((await probe('GET', '/api/plans?all=1')).statusCode).toBe(401);
    // Every operation was refused at least once: the probe reached them all.
    const unrefused = operations()
      .map(({ id }) => id)
      .filter((id) => !refusals.has(id) && !['GET /api/health', 'GET /api/ready', 'GET /api/auth/session', 'GET /api/bundles', 'GET /api/settings/referral', 'GET /api/payments/config'].includes(id));
    expect(unrefused, 'operations no probe got a refusal from').toEqual([]);
  }, 300_000);
});

describe('coverage', () => {
  it('every JSON route had a real answer checked above', () => {
    const json = operations().filter(({ id }) => !NOT_JSON.some((p) => (typeof p === 'string' ? p === id : p.test(id))));
    expect(json.map(({ id }) => id).filter((id) => !answered.has(id))).toEqual([]);
  });
});
