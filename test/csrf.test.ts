import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessMessages } from '../src/shared/access.messages.js';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { png, upload } from './library.fixtures.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';

/**
 * CSRF: every state-changing route, taken from the OpenAPI document, is
 * refused with 403 when the session cookie arrives from another origin
 * (another port or subdomain of the same site included). Bearer calls and
 * the app's own pages are unaffected.
 */
const PUBLIC_URL = 'http://127.0.0.1:3999';
let t: TestApp;
let user: TestUser;
let admin: TestUser;
let routes: { method: string; url: string }[] = [];

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL }, { provider: createFakeAiProvider({ delayMs: 0 }) });
  user = await registerUser(t, { energy: 5 });
  admin = await registerUser(t, { role: 'admin' });
  const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
  routes = Object.entries(doc.paths).flatMap(([url, ops]) =>
    Object.keys(ops)
      .filter((m) => ['post', 'put', 'delete', 'patch'].includes(m))
      .map((m) => ({ method: m.toUpperCase(), url: url.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000') })),
  );
  // Pages left out of the public document still change state: the test checkout's forms.
  routes.push(
    { method: 'POST', url: '/checkout/test/00000000-0000-4000-8000-000000000000/pay' },
    { method: 'POST', url: '/checkout/test/00000000-0000-4000-8000-000000000000/cancel' },
  );
}, 60_000);
afterAll(() => t.close());

const snapshot = async () => ({
  users: await t.db.query('SELECT id, role, full_name FROM users ORDER BY id'),
  sessions: await t.db.query('SELECT count(*)::int AS n FROM sessions'),
  items: await t.db.query('SELECT id FROM uploaded_images ORDER BY id'),
  invites: await t.db.query('SELECT id, is_active FROM referral_invites ORDER BY id'),
  ledger: await t.db.query('SELECT count(*)::int AS n FROM energy_transactions'),
  jobs: await t.db.query('SELECT count(*)::int AS n FROM tool_jobs'),
  pricing: await t.db.query('SELECT tool_name, base_energy_cost FROM admin_tool_pricing ORDER BY tool_name'),
  settings: await t.db.query('SELECT is_referral_only FROM referral_settings'),
});

const inject = (method: string, url: string, headers: Record<string, string>) =>
  t.app.inject({ method: method as 'POST', url, headers, ...(method === 'DELETE' ? {} : { payload: {} }) });

describe('cross-site requests with the session cookie', () => {
  it('covers every state-changing route', () => {
    expect(routes.length).toBeGreaterThan(24);
    const names = routes.map((r) => `${r.method} ${r.url}`);
    expect(names).toContain('POST /functions/v1/fal-upscaler');
    expect(names).toContain('POST /api/library/uploads');
    // The hidden checkout forms this file adds are real routes of the app.
    expect(t.app.hasRoute({ method: 'POST', url: '/checkout/test/:id/pay' })).toBe(true);
    expect(t.app.hasRoute({ method: 'POST', url: '/checkout/test/:id/cancel' })).toBe(true);
  });

  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['another port of the same host', { origin: 'http://127.0.0.1:4000' }],
    ['an opaque Origin', { origin: 'null' }],
    ['Sec-Fetch-Site cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site same-site without Origin', { 'sec-fetch-site': 'same-site' }],
  ])('%s gets 403 on every POST/PUT/PATCH/DELETE, and nothing changes', async (_name, extra) => {
    const before = await snapshot();
    const failures: string[] = [];
    for (const who of [user, admin]) {
      for (const { method, url } of routes) {
        const res = await inject(method, url, { cookie: `pr_session=${who.token}`, ...extra });
        if (res.statusCode !== 403 || res.json().error !== accessMessages.crossSite) failures.push(`${method} ${url} -> ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('a cookie-authenticated multipart upload from another origin is refused and stores nothing', async () => {
    const res = await upload(t, null, { filename: 'a.png', contentType: 'image/png', body: await png() });
    expect(res.statusCode).toBe(401);
    const body = await png();
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/library/uploads',
      headers: { cookie: `pr_session=${user.token}`, origin: 'https://evil.example', 'content-type': 'multipart/form-data; boundary=x' },
      payload: Buffer.concat([Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n'), body, Buffer.from('\r\n--x--\r\n')]),
    });
    expect(forged.statusCode).toBe(403);
    expect(await t.db.query('SELECT 1 FROM uploaded_images WHERE user_id = $1', [user.id])).toHaveLength(0);
  });

  it('our own origin (PUBLIC_URL, or the host the browser addressed) and same-origin fetches pass', async () => {
    const cookie = `pr_session=${user.token}`;
    const own = await inject('POST', '/api/invites', { cookie, origin: PUBLIC_URL });
    expect(own.statusCode).toBe(200);
    const byHost = await inject('POST', '/api/invites', { cookie, origin: 'http://localhost:5173', host: 'localhost:5173' });
    expect(byHost.statusCode).toBe(200);
    const sameOrigin = await inject('POST', '/api/invites', { cookie, 'sec-fetch-site': 'same-origin' });
    expect(sameOrigin.statusCode).toBe(200);
    // Our own pages post forms under Referrer-Policy: no-referrer, which makes Origin 'null'.
    const form = await inject('POST', '/api/invites', { cookie, origin: 'null', 'sec-fetch-site': 'same-origin' });
    expect(form.statusCode).toBe(200);
    const framed = await inject('POST', '/api/invites', { cookie, origin: 'null', 'sec-fetch-site': 'cross-site' });
    expect(framed.statusCode).toBe(403);
  });

  it('bearer calls are not affected by Origin', async () => {
    const res = await inject('POST', '/api/invites', { ...user.headers, origin: 'https://evil.example' });
    expect(res.statusCode).toBe(200);
  });
});
