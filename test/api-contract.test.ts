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
}
type Doc = { paths: Record<string, Record<string, Operation>> };

beforeAll(async () => {
  t = await createTestApp({}, { provider: createFakeAiProvider({ delayMs: 0 }), media: createMemoryMedia() });
  user = await registerUser(t, { energy: 100 });
  admin = await registerUser(t, { role: 'admin' });
});
afterAll(() => t.close());

const doc = () => t.app.swagger() as unknown as Doc;

/** Routes that answer JSON without a declared success schema yet: this list may only shrink. */
const UNDECLARED = [
  'GET /api/health',
  'GET /api/ready',
  'POST /api/auth/sign-up/email',
  'POST /api/auth/sign-in/email',
  'POST /api/auth/sign-out',
  'GET /api/me',
  'POST /functions/v1/check-vip-status',
  'POST /functions/v1/check-admin-status',
  'POST /functions/v1/stripe-checkout',
  'GET /api/checkout/sessions/{id}',
  'GET /api/subscription',
  'GET /api/payments/config',
  'POST /api/webhooks/stripe',
  'GET /api/tools/info',
  'GET /api/jobs/{id}/result',
  'POST /api/jobs/{id}/retry',
  'POST /api/account/password',
  'DELETE /api/account/sessions/{id}',
  'POST /api/account/sessions/end-others',
];

/** Answers that are not JSON (streams, files, redirects, pages): nothing to declare as a JSON schema. */
const NOT_JSON = [
  'GET /api/events',
  'GET /api/library/{id}/download',
  'GET /api/account/export',
  /^GET \/api\/batches\/\{id\}\/download/,
  /^(GET|POST) \/checkout\/test\//,
  /^GET \/dev\/outbox/,
];

const operations = () =>
  Object.entries(doc().paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })));

const successSchemas = (op: Operation) =>
  Object.entries(op.responses ?? {}).filter(([status, r]) => status.startsWith('2') && r.content?.['application/json']?.schema);

describe('every route declares its answers', () => {
  it('each JSON route has a response schema for its success status (or is on the shrinking list)', () => {
    const missing = operations()
      .filter(({ id }) => !NOT_JSON.some((p) => (typeof p === 'string' ? p === id : p.test(id))))
      .filter(({ op }) => successSchemas(op).length === 0)
      .map(({ id }) => id);
    expect(missing.filter((id) => !UNDECLARED.includes(id)), 'routes without a response schema').toEqual([]);
    expect(UNDECLARED.filter((id) => !missing.includes(id)), 'declared now: take them off UNDECLARED').toEqual([]);
  });
});

/** OpenAPI 3.0 says `nullable: true` where JSON Schema says "or null". */
function asJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, asJsonSchema(v)]));
  return nullable ? { anyOf: [converted, { type: 'null' }] } : converted;
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

/** app.inject, plus: a success answer of a route that declares its answers must be one of them, exactly. */
async function call(opts: InjectOptions & { url: string }): Promise<LightMyRequestResponse> {
  const res = await t.app.inject(opts);
  const { route, schema, declaresAny } = declaredSchema(opts.method ?? 'GET', opts.url, res.statusCode);
  if (res.statusCode < 300 && declaresAny) {
    expect(schema, `${route} answered an undeclared status ${res.statusCode}`).toBeDefined();
    const parsed = schema!.safeParse(res.json());
    expect(parsed.success ? [] : parsed.error.issues, `${route} ${res.statusCode} answer`).toEqual([]);
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
    // Saving nothing new still answers the result shape, and changes no price another test relies on.
    expect((await call({ method: 'POST', url: '/functions/v1/admin-update-pricing', ...as(admin), payload: {} })).statusCode).toBe(200);

    expect((await call({ method: 'POST', url: `/api/admin/users/${target.id}/grant`, ...as(admin), payload: { amount: 3, reason: 'contract' } })).statusCode).toBe(200);
    expect((await call({ method: 'POST', url: `/api/admin/users/${target.id}/role`, ...as(admin), payload: { role: 'vip' } })).statusCode).toBe(200);
    const history = await call({ url: '/api/transactions?limit=1', ...as(target) });
    expect((history.json() as { items: unknown[] }).items).toHaveLength(1);
    await call({ url: '/api/transactions', ...as(user) });

    await call({ url: '/api/admin/summary', ...as(admin) });
    const audit = await call({ url: '/api/admin/audit?limit=2', ...as(admin) });
    expect((audit.json() as { items: unknown[] }).items.length).toBeGreaterThan(0);
  });
});
