import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, uploadPicture, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';

/**
 * A4: every endpoint x {anonymous, another user, non-admin}, generated from
 * the app's own route list. Anonymous callers get 401 on everything that is
 * not public; another user using A's ids gets 404/403; a non-admin gets 403
 * on admin endpoints; and the database is unchanged afterwards.
 */
const PUBLIC = new Set([
  'GET /api/health',
  'GET /api/ready',
  'POST /api/auth/sign-up/email',
  'POST /api/auth/sign-in/email',
  'POST /api/auth/sign-out',
  // Answers null to a visitor, so signed-out pages can ask without a 401 in the console.
  'GET /api/auth/session',
  'GET /api/settings/referral',
  'GET /api/plans',
  'GET /api/bundles',
  'GET /api/payments/config',
  'POST /api/webhooks/stripe',
  'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password',
  'POST /api/auth/verify-email',
  // The dev outbox (only when MAIL_OUTBOX is on): whoever forgot a password is signed out.
  'GET /dev/outbox',
  'GET /dev/outbox/{id}',
  'GET /dev/outbox/{id}/html',
]);

/**
 * Routes whose path parameter names a tool, not anyone's row: every signed-in
 * user gets the same answer, so another user is served rather than refused.
 */
const SHARED = new Set(['GET /api/tools/{tool}/estimate']);

/** The test checkout's HTML pages send anonymous visitors to sign in (the landing page). */
const PAGES = new Set(['GET /checkout/test/{id}', 'POST /checkout/test/{id}/pay', 'POST /checkout/test/{id}/cancel']);

let t: TestApp;
let a: TestUser;
let b: TestUser;
const ids: Record<string, string> = {};
let routes: { method: string; url: string }[] = [];

async function snapshot() {
  const q = async (sql: string) => JSON.stringify(await t.db.query(sql));
  return {
    users: await q('SELECT id, email, role FROM users ORDER BY id'),
    profiles: await q('SELECT id, energy_balance, total_energy_purchased FROM user_profiles ORDER BY id'),
    ledger: await q('SELECT count(*)::int AS n, COALESCE(SUM(amount), 0)::int AS s FROM energy_transactions'),
    library: await q('SELECT id, status, storage_path FROM uploaded_images ORDER BY id'),
    invites: await q('SELECT id, is_active, current_uses, max_uses FROM referral_invites ORDER BY id'),
    jobs: await q('SELECT id, status FROM tool_jobs ORDER BY id'),
    checkouts: await q('SELECT id, status FROM checkout_sessions ORDER BY id'),
    pricing: await q('SELECT tool_name, base_energy_cost, discount_percentage, is_active FROM admin_tool_pricing ORDER BY tool_name'),
    plans: await q('SELECT price_id, energy_amount, bonus_energy, is_active FROM plan_energy_mapping ORDER BY price_id'),
    settings: await q('SELECT is_referral_only FROM referral_settings'),
    audit: await q('SELECT count(*)::int AS n FROM admin_audit'),
  };
}

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: `./.tmp/authz-${process.pid}` }, { provider: createFakeAiProvider({ delayMs: 0 }) });
  a = await registerUser(t, { energy: 20 });
  b = await registerUser(t, { energy: 20 });

  ids.library = await uploadPicture(t, a, 'a.png', 20, 20);
  ids.invites = (await t.app.inject({ method: 'POST', url: '/api/invites', headers: a.headers, payload: {} })).json().invite.id;
  ids.jobs = (await t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: a.headers, payload: { image_url: ids.library } })).json().job_id;
  ids.checkout = (
    await t.app.inject({
      method: 'POST',
      url: '/functions/v1/stripe-checkout',
      headers: a.headers,
      payload: { price_id: 'price_pixelrush_starter', mode: 'payment', success_url: 'http://127.0.0.1:3000/success', cancel_url: 'http://127.0.0.1:3000/dashboard' },
    })
  ).json().session_id;
  for (const [k, v] of Object.entries(ids)) if (!v) throw new Error(`fixture ${k} missing`);

  const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
  routes = Object.entries(doc.paths).flatMap(([url, ops]) =>
    Object.keys(ops)
      .filter((m) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))
      .map((m) => ({ method: m.toUpperCase(), url })),
  );
  // Pages left out of the public document: checked all the same.
  routes.push(...[...PAGES, ...[...PUBLIC].filter((r) => r.includes('/dev/'))].map((r) => ({ method: r.split(' ')[0]!, url: r.split(' ')[1]! })));
});
afterAll(() => t.close());

/** A's id for a path's parameter. */
function withIds(url: string): string {
  return url.replace(/\{(\w+)\}/g, () => {
    if (url.startsWith('/api/library')) return ids.library;
    if (url.startsWith('/api/invites')) return ids.invites;
    if (url.startsWith('/api/jobs')) return ids.jobs;
    if (url.startsWith('/api/checkout') || url.startsWith('/checkout')) return ids.checkout;
    if (url.startsWith('/api/admin/users')) return a.id;
    if (url.startsWith('/api/tools/')) return 'fal-upscaler';
    return ids.library;
  });
}

const call = (method: string, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: method as 'GET', url, headers, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });

describe('authorization matrix (A4)', () => {
  it('covers the whole API', () => {
    expect(routes.length).toBeGreaterThan(40);
    for (const must of ['POST /api/account/delete', 'DELETE /api/account/sessions/{id}', 'GET /api/account/export', 'POST /functions/v1/admin-update-pricing', 'DELETE /api/library/{id}', 'POST /api/jobs/{id}/cancel', 'POST /api/invites/{id}/deactivate']) {
      expect(routes.map((r) => `${r.method} ${r.url}`)).toContain(must);
    }
  });

  it('anonymous callers get 401 on every non-public endpoint; another user and a non-admin are refused; nothing changes', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    for (const { method, url } of routes) {
      const key = `${method} ${url}`;
      const target = withIds(url);
      if (PAGES.has(key)) {
        const anon = await call(method, target);
        if (anon.statusCode !== 302 || anon.headers.location !== '/') failures.push(`anonymous ${key} -> ${anon.statusCode}`);
      } else if (!PUBLIC.has(key)) {
        const anon = await call(method, target);
        if (anon.statusCode !== 401) failures.push(`anonymous ${key} -> ${anon.statusCode}`);
      }
      const isAdmin = url.startsWith('/api/admin') || url === '/functions/v1/admin-update-pricing' || (url === '/api/settings/referral' && method === 'PUT');
      if (isAdmin) {
        const nonAdmin = await call(method, target, b.headers);
        if (nonAdmin.statusCode !== 403) failures.push(`non-admin ${key} -> ${nonAdmin.statusCode}`);
      } else if (SHARED.has(key)) {
        const other = await call(method, target, b.headers);
        if (other.statusCode !== 200) failures.push(`signed-in ${key} -> ${other.statusCode}`);
      } else if (url.includes('{')) {
        const other = await call(method, target, b.headers);
        if (![403, 404].includes(other.statusCode)) failures.push(`other user ${key} -> ${other.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('A\'s signed file link does not open B\'s file', async () => {
    const mine = (await t.app.inject({ url: `/api/library/${ids.library}`, headers: a.headers })).json();
    const link = new URL(mine.url, 'http://x');
    const forged = link.pathname.replace(a.id, b.id) + link.search;
    expect((await t.app.inject({ url: forged })).statusCode).toBe(403);
    expect((await t.app.inject({ url: link.pathname + link.search })).statusCode).toBe(200);
  });
});
