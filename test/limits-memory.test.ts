import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../src/server/db/db.js';
import { Limiter } from '../src/server/features/limits/limiter.js';
import { AuthService } from '../src/server/features/auth/auth.service.js';
import { limitMessages } from '../src/shared/limits.messages.js';
import { createTestApp, registerUser, type TestApp } from './helpers/test-app.js';
import { freshNet, freshTag } from './helpers/fresh.js';
import { png, tempDir, upload } from './library.fixtures.js';

/**
 * The fast path of the limits (decision 024): a refusal the database gave
 * once is repeated from memory until the window ends, so a flood costs no
 * database work, while the database stays the only one that ever allows.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ UPLOADS_PER_HOUR: '2', DATA_DIR: tempDir('pr-limits-memory-') });
});
afterAll(() => t.close());

/** The test database, counting the round trips made through it. */
function countingDb(db: Db) {
  let trips = 0;
  const counted: Db = Object.assign(Object.create(db) as Db, {
    query: (sql: string, params?: unknown[]) => (trips++, db.query(sql, params)),
    transaction: (fn: Parameters<Db['transaction']>[0]) => (trips++, db.transaction(fn)),
  });
  return { db: counted, trips: () => trips };
}

const unique = (name: string) => `test:${name}:${Date.now()}:${Math.random()}`;

describe('limiter memory', () => {
  it('a key refused once is refused from memory, without a database round trip', async () => {
    const { db, trips } = countingDb(t.db);
    const limiter = new Limiter(db);
    const rule = { key: unique('memory'), limit: 2, windowSeconds: 60 };
    expect((await limiter.take([rule])).ok).toBe(true);
    expect((await limiter.take([rule])).ok).toBe(true);
    expect((await limiter.take([rule])).ok).toBe(false);
    const before = trips();
    const flood = await Promise.all(Array.from({ length: 50 }, () => limiter.take([rule])));
    expect(trips()).toBe(before);
    for (const verdict of flood) {
      expect(verdict.ok).toBe(false);
      if (!verdict.ok) expect(verdict.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      if (!verdict.ok) expect(verdict.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
  });

  it('the memory ends with the window: the next attempt is allowed by the database', async () => {
    const limiter = new Limiter(t.db);
    const rule = { key: unique('expiry'), limit: 1, windowSeconds: 2 };
    expect((await limiter.take([rule])).ok).toBe(true);
    const refused = await limiter.take([rule]);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterSeconds).toBeLessThanOrEqual(2);
    await vi.waitFor(async () => expect((await limiter.peek([rule])).ok).toBe(true), { timeout: 10_000, interval: 100 });
    expect((await limiter.take([rule])).ok).toBe(true);
  });

  it("another process's refusal still applies: a fresh memory asks the database, then remembers", async () => {
    const first = new Limiter(t.db);
    const { db, trips } = countingDb(t.db);
    const second = new Limiter(db);
    const rule = { key: unique('shared'), limit: 3, windowSeconds: 60 };
    for (let i = 0; i < 3; i++) expect((await first.take([rule])).ok).toBe(true);
    expect((await second.take([rule])).ok).toBe(false);
    expect(trips()).toBe(1);
    expect((await second.take([rule])).ok).toBe(false);
    expect(trips()).toBe(1);
  });
});

describe('the account-wide sign-in wall', () => {
  const signIn = (email: string, password: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password }, remoteAddress: ip });

  it('guesses from strangers are refused without a lookup; the owner at a known address still signs in', async () => {
    const strangers = freshNet('198.51');
    const owner = { email: `wall-${freshTag()}@example.com`, ip: `${freshNet('10.77')}.1` };
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { name: 'Owner', email: owner.email, password: 'password1' },
      remoteAddress: owner.ip,
    });
    expect(signUp.statusCode).toBe(200);
    const { db, trips } = countingDb(t.db);
    const auth = new AuthService(db, []);
    const meta = (i: number) => ({ ip: `${strangers}.${i}` });
    const attempts = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => auth.signIn({ email: owner.email, password: `guess-${i}` }, meta(i))));
    const codes = attempts.map((a) => (a.status === 'rejected' ? (a.reason as { code: string }).code : 'ok'));
    expect(codes.filter((c) => c === 'unauthenticated')).toHaveLength(10);
    expect(codes.filter((c) => c === 'rate_limited')).toHaveLength(2);

    const before = trips();
    const refusals = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => auth.signIn({ email: owner.email, password: 'password1' }, meta(100 + i))));
    expect(trips()).toBe(before);
    for (const r of refusals) expect(r.status === 'rejected' && (r.reason as { code: string }).code).toBe('rate_limited');

    // The owner's own address is not behind the wall.
    const session = await auth.signIn({ email: owner.email, password: 'password1' }, { ip: owner.ip });
    expect(session.user.email).toBe(owner.email);
    // The app's own wall (another AuthService) is raised by its own database refusal.
    expect((await signIn(owner.email, 'password1', `${strangers}.250`)).statusCode).toBe(429);
    expect((await signIn(owner.email, 'password1', owner.ip)).statusCode).toBe(200);
  }, 60_000);
});

describe('route limits before the auth guard', () => {
  it('a refused token is refused again without its session being looked up, for a few seconds only', async () => {
    const user = await registerUser(t);
    const file = { filename: 'a.png', contentType: 'image/png', body: await png(8, 8) };
    expect((await upload(t, user, file)).statusCode).toBe(201);
    expect((await upload(t, user, file)).statusCode).toBe(201);
    expect((await upload(t, user, file)).statusCode).toBe(429);
    // Signed out: a lookup would answer 401, so the 429 comes from memory.
    await t.db.query('DELETE FROM sessions WHERE user_id = $1', [user.id]);
    const remembered = await upload(t, user, file);
    expect(remembered.statusCode).toBe(429);
    expect(remembered.json().error).toBe(limitMessages.uploads(2));
    expect(Number(remembered.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await vi.waitFor(async () => expect((await upload(t, user, file)).statusCode).toBe(401), { timeout: 15_000, interval: 250 });
  }, 30_000);
});
