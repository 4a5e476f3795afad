import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { createMemoryMedia } from './helpers/memory-media.js';
import { apiKeyMessages } from '../src/shared/api-keys.schema.js';
import { SESSION_COOKIE } from '../src/shared/constants.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { provider: createFakeAiProvider({ delayMs: 5 }), media: createMemoryMedia() });
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function createKey(headers: Record<string, string>, name = 'laptop script') {
  const res = await t.app.inject({ method: 'POST', url: '/api/keys', headers, payload: { name } });
  expect(res.statusCode).toBe(201);
  return res.json() as { key: { id: string; prefix: string; name: string }; token: string };
}

describe('personal API keys', () => {
  it('are shown once, stored hashed, and listed by prefix', async () => {
    const user = await registerUser(t);
    const { key, token } = await createKey(user.headers);
    expect(token.startsWith(`${key.prefix}_`)).toBe(true);
    expect(key.prefix).toMatch(/^prk_[a-z2-9]{8}$/);
    const stored = await t.db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [key.id]);
    expect(JSON.stringify(stored)).not.toContain(token.split('_').pop());
    const list = await t.app.inject({ method: 'GET', url: '/api/keys', headers: user.headers });
    expect(list.json().items.map((k: { prefix: string }) => k.prefix)).toEqual([key.prefix]);
    expect(JSON.stringify(list.json())).not.toContain(token);
  });

  it('authenticate the owner, record last use, and charge runs to the owner', async () => {
    const user = await registerUser(t, { energy: 10 });
    const { key, token } = await createKey(user.headers);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(user.email);
    const [row] = await t.db.query<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_keys WHERE id = $1', [key.id]);
    expect(row.last_used_at).not.toBeNull();

    const run = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/fal-upscaler',
      headers: bearer(token),
      payload: { image_url: 'https://example.com/a.png' },
    });
    expect(run.statusCode).toBe(200);
    const [{ energy_balance }] = await t.db.query<{ energy_balance: number }>('SELECT energy_balance FROM user_profiles WHERE id = $1', [user.id]);
    expect(energy_balance).toBeLessThan(10);

    // The history names the key beside the charge.
    const history = (await t.app.inject({ method: 'GET', url: '/api/transactions', headers: user.headers })).json();
    const spend = history.items.find((i: { type: string }) => i.type === 'spend');
    expect(spend).toMatchObject({ api_key_name: 'laptop script', api_key_prefix: key.prefix });
  });

  it('never reach key management, account or admin calls', async () => {
    const admin = await registerUser(t, { role: 'admin' });
    const { token } = await createKey(admin.headers);
    for (const [method, url, payload] of [
      ['GET', '/api/keys', undefined],
      ['POST', '/api/keys', { name: 'minted by a key' }],
      ['GET', '/api/admin/summary', undefined],
      ['POST', '/functions/v1/admin-update-pricing', { pricing_updates: { 'fal-upscaler': 0 } }],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(token), payload });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe(apiKeyMessages.notAllowed);
    }
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1', [admin.id]);
    expect(n).toBe(1);
  });

  it('stop working once revoked, and only the owner can revoke', async () => {
    const owner = await registerUser(t);
    const other = await registerUser(t);
    const { key, token } = await createKey(owner.headers);
    const foreign = await t.app.inject({ method: 'DELETE', url: `/api/keys/${key.id}`, headers: other.headers });
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).statusCode).toBe(200);

    const revoke = await t.app.inject({ method: 'DELETE', url: `/api/keys/${key.id}`, headers: owner.headers });
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json().revoked_at).not.toBeNull();
    const after = await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe(apiKeyMessages.invalid);
  });

  it('refuse a key sent as the session cookie', async () => {
    const user = await registerUser(t);
    const { token } = await createKey(user.headers);
    const res = await t.app.inject({ method: 'GET', url: '/api/me', cookies: { [SESSION_COOKIE]: token } });
    expect(res.statusCode).toBe(401);
  });

  it('validate names and cap how many a person holds, under concurrency', async () => {
    const user = await registerUser(t);
    for (const name of ['   ', '\u200b\u200b']) {
      const blank = await t.app.inject({ method: 'POST', url: '/api/keys', headers: user.headers, payload: { name } });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().error).toBe(apiKeyMessages.nameRequired);
    }
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => t.app.inject({ method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: `k${i}` } })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(20);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().error === apiKeyMessages.tooMany)).toBe(true);
  });

  it('are rate limited per key, and the limit holds under parallel calls', async () => {
    const limited = await createTestApp({ API_KEY_CALLS_PER_MINUTE: '5' });
    try {
      const user = await registerUser(limited);
      const create = await limited.app.inject({ method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'burst' } });
      const { token } = create.json() as { token: string };
      const results = await Promise.all(
        Array.from({ length: 12 }, () => limited.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })),
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5);
      const refused = results.filter((r) => r.statusCode === 429);
      expect(refused).toHaveLength(7);
      expect(Number(refused[0].headers['retry-after'])).toBeGreaterThan(0);
      // The owner's own session is not slowed down by the key's budget.
      expect((await limited.app.inject({ method: 'GET', url: '/api/me', headers: user.headers })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
