import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { authMessages } from '../src/shared/auth.messages.js';
import { Limiter } from '../src/server/features/limits/limiter.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { freshNet, freshTag } from './helpers/fresh.js';

/**
 * The sign-in throttle under parallel attack (issue: 75 of 150 parallel
 * guesses were checked). Attempts are counted before the password check in
 * one locked step, so the count holds however many requests race.
 */
// Every password check, counted: the throttle's promise is about checks, not answers
// (checking first and counting after would still answer 429, and guess freely).
const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../src/server/features/auth/password.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/server/features/auth/password.js')>();
  return {
    ...real,
    verifyPassword: async (hash: string, password: string) => {
      checks.count += 1;
      return real.verifyPassword(hash, password);
    },
  };
});
beforeEach(() => {
  checks.count = 0;
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const signIn = (email: string, password: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password }, remoteAddress: ip });
const signUp = (email: string, ip: string, password = 'password1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', payload: { name: 'Victim', email, password }, remoteAddress: ip });

describe('sign-in throttle under parallel attack', () => {
  it('150 parallel wrong passwords from 150 addresses: 10 are checked, the rest get 429 with Retry-After', async () => {
    const victim = `victim-${freshTag()}@example.com`;
    const [home, strangers] = [freshNet('10.9'), freshNet('172.16')];
    expect((await signUp(victim, `${home}.1`)).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 150 }, (_, i) => signIn(victim, `guess-${i}`, `${strangers}.${i}`)));
    const checked = answers.filter((a) => a.statusCode === 401);
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(checked).toHaveLength(10);
    expect(limited).toHaveLength(140);
    expect(checks.count).toBe(10);
    for (const a of limited) {
      expect(a.json()).toEqual({ error: authMessages.tooManyAttempts, code: 'rate_limited', request_id: expect.any(String) });
      const wait = Number(a.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
    }
    // The owner, at the address they signed up from, is not locked out by strangers.
    expect((await signIn(victim, 'password1', `${home}.1`)).statusCode).toBe(200);
    // A stranger's address with the right password is still behind the account-wide wall.
    expect((await signIn(victim, 'password1', `${strangers}.200`)).statusCode).toBe(429);
  }, 60_000);

  it('one address guessing one account in parallel gets 10 checks, even at a known address', async () => {
    const [email, ip] = [`home-${freshTag()}@example.com`, `${freshNet('10.9')}.2`];
    expect((await signUp(email, ip)).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(email, `nope-${i}`, ip)));
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(10);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(30);
    expect(checks.count).toBe(10);
  }, 60_000);

  it('one address spraying many accounts gets its per-address allowance, and other addresses are untouched', async () => {
    const [tag, net] = [freshTag(), freshNet('10.11')];
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => signIn(`spray${i}-${tag}@example.com`, 'guess', `${net}.77`)));
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(20);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(40);
    expect(checks.count).toBe(20);
    expect((await signIn(`spray1-${tag}@example.com`, 'guess', `${net}.78`)).statusCode).toBe(401);
  }, 60_000);

  it('sign-ups are throttled per address, and do not share a counter with sign-in', async () => {
    const [tag, ip] = [freshTag(), `${freshNet('198.18')}.5`];
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => signUp(`new${i}-${tag}@example.com`, ip)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(20);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(10);
    const rows = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE email LIKE $1', [`new%-${tag}@example.com`]);
    expect(rows[0]!.n).toBe(20);
    // The same address can still sign in to an account it made.
    expect((await signIn(`new0-${tag}@example.com`, 'password1', ip)).statusCode).toBe(200);
  }, 60_000);
});

describe('deleting an account clears only its own throttle counters', () => {
  const countersOf = async (email: string) =>
    (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM limit_events WHERE position($1 in key) > 0', [email]))[0]!.n;

  it.each(['%@x.test', '_@x.test', '\\@x.test'])('an account named %s erases nobody else’s sign-in counters', async (wild) => {
    const victim = `victim-${Math.random().toString(36).slice(2, 8)}@x.test`;
    expect((await signUp(victim, '10.20.0.1')).statusCode).toBe(200);
    const signedUp = await signUp(wild, '10.20.0.2');
    expect(signedUp.statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await signIn(victim, `guess-${i}`, '10.20.0.3')).statusCode).toBe(401);
    expect((await signIn(wild, 'guess', '10.20.0.4')).statusCode).toBe(401);
    const before = await countersOf(victim);
    expect(before).toBeGreaterThan(0);

    const token = (await signIn(wild, 'password1', '10.20.0.2')).json().token as string;
    const gone = await t.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: { authorization: `Bearer ${token}` },
      payload: { password: 'password1', confirm: 'DELETE' },
    });
    expect(gone.statusCode).toBe(200);
    // Its own counters went; the victim's stayed.
    expect(await countersOf(wild)).toBe(0);
    expect(await countersOf(victim)).toBe(before);
  });
});

describe('limiter', () => {
  it('is a sliding window: after the oldest attempt leaves the window there is room for one more', async () => {
    const limiter = new Limiter(t.db);
    const rule = { key: `test:slide:${Date.now()}`, limit: 3, windowSeconds: 2 };
    for (let i = 0; i < 3; i++) expect((await limiter.take([rule])).ok).toBe(true);
    const refused = await limiter.take([rule]);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterSeconds).toBeLessThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await limiter.take([rule])).ok).toBe(true);
    expect((await limiter.take([rule])).ok).toBe(true);
  });

  it('a refusal on one rule counts nothing against the others', async () => {
    const limiter = new Limiter(t.db);
    const full = { key: `test:full:${Date.now()}`, limit: 1, windowSeconds: 60 };
    const other = { key: `test:other:${Date.now()}`, limit: 1, windowSeconds: 60 };
    expect((await limiter.take([full])).ok).toBe(true);
    expect((await limiter.take([full, other])).ok).toBe(false);
    expect((await limiter.take([other])).ok).toBe(true);
  });

  it('concurrency slots: parallel acquirers get exactly max; a released slot is free again', async () => {
    const limiter = new Limiter(t.db);
    const key = `test:lease:${Date.now()}`;
    const leases = await Promise.all(Array.from({ length: 12 }, () => limiter.acquire(key, 3, 60)));
    const held = leases.filter((l) => l !== null);
    expect(held).toHaveLength(3);
    await held[0]!.release();
    expect(await limiter.acquire(key, 3, 60)).not.toBeNull();
    expect(await limiter.acquire(key, 3, 60)).toBeNull();
  });
});
