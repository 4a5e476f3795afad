import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountMessages } from '../src/shared/account.messages.js';
import { authMessages } from '../src/shared/auth.messages.js';
import { PreLimiter } from '../src/server/features/limits/pre-limiter.js';
import { RESET_CHECKS_AT_ONCE, RESET_CHECKS_WAITING } from '../src/server/features/account/account.service.js';
import { createTestApp, registerUser, type TestApp } from './helpers/test-app.js';
import { resetMailsTo } from './helpers/reset-mail.js';

/**
 * A reset-password flood is refused from memory (issue 22): a fresh address per request still
 * finds only a few attempts at the database at once, an address over its minute is refused
 * without asking the database, and reset-link requests queue their background work behind a cap.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://localhost:3999' });
});
afterAll(() => t?.close());

const reset = (token: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'new-password-1', confirmPassword: 'new-password-1' }, remoteAddress: ip });
const forgot = (email: string, ip: string) => t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, remoteAddress: ip });

describe('a reset-password flood', () => {
  it('from a fresh address per request: only a short line reaches the database, the rest is refused at once', async () => {
    // The database is slow to answer (held): what piles up in front of it is what a flood costs.
    const limiter = t.ctx.services.limiter;
    const realTake = limiter.take.bind(limiter);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const take = vi.spyOn(limiter, 'take').mockImplementation(async (...args) => {
      await held;
      return realTake(...args);
    });
    try {
      const limited: Awaited<ReturnType<typeof reset>>[] = [];
      const pending = Array.from({ length: 100 }, (_, i) =>
        reset(`made-up-${i}`, `198.51.${i >> 8}.${i & 255}`).then((a) => {
          if (a.statusCode === 429) limited.push(a);
          return a;
        }),
      );
      // Refused while the database still holds the first ones: a few at it, a short line, the rest refused.
      const admitted = RESET_CHECKS_AT_ONCE + RESET_CHECKS_WAITING;
      const until = Date.now() + 20_000;
      while (limited.length < 100 - admitted && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(limited).toHaveLength(100 - admitted);
      expect(limited[0]!.json()).toMatchObject({ error: authMessages.tooManyAttempts, code: 'rate_limited' });
      expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(take.mock.calls.length).toBeLessThanOrEqual(RESET_CHECKS_AT_ONCE);
      release();
      const answers = await Promise.all(pending);
      const invalid = answers.filter((a) => a.statusCode === 400);
      expect(invalid[0]!.json()).toMatchObject({ error: accountMessages.resetLinkInvalid });
      expect(invalid).toHaveLength(admitted);
      expect(take.mock.calls.length).toBe(invalid.length);
    } finally {
      release();
      take.mockRestore();
    }
    // The flood is over: the next attempt is answered on its merits.
    expect((await reset('made-up-after', '198.51.100.1')).statusCode).toBe(400);
  });

  it('an address over its minute is refused from memory, without asking the database', async () => {
    const ip = '198.51.100.50';
    for (let i = 0; i < 20; i++) expect((await reset(`made-up-${i}`, ip)).statusCode).toBe(400);
    const limiter = t.ctx.services.limiter;
    const take = vi.spyOn(limiter, 'take');
    try {
      const res = await reset('made-up-21', ip);
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(take).not.toHaveBeenCalled();
    } finally {
      take.mockRestore();
    }
  });
});

describe('reset-link requests under a flood', () => {
  it('background work waits in a capped line; past the cap every address is refused alike', async () => {
    const user = await registerUser(t);
    // Held before it reads anything (a held transaction would stop the embedded database).
    const account = t.ctx.services.account as unknown as { mailResetLink(email: string): Promise<void> };
    const realMail = account.mailResetLink.bind(account);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    account.mailResetLink = async (email) => {
      started += 1;
      await gate;
      return realMail(email);
    };
    try {
      // Two mails held (the known address, twice), then a backlog of unknown ones.
      expect((await forgot(user.email, '203.0.113.1')).statusCode).toBe(200);
      expect((await forgot(user.email, '203.0.113.2')).statusCode).toBe(200);
      const answers = [];
      for (let i = 0; i < 60; i += 10) {
        answers.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => forgot(`nobody-${i + j}@example.com`, `203.0.113.${i + j + 10}`)))));
      }
      // Two at work, fifty waiting: the rest of the sixty refused.
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(50);
      const refused = answers.find((a) => a.statusCode === 429)!;
      expect(refused.json()).toMatchObject({ error: accountMessages.resetThrottled, code: 'rate_limited' });
      // The known address is refused the same way while the line is full.
      const known = await forgot(user.email, '203.0.114.250');
      expect(known.statusCode).toBe(429);
      expect(known.json()).toMatchObject({ error: refused.json().error, code: refused.json().code });
      expect(started).toBeLessThanOrEqual(2);
    } finally {
      release();
      account.mailResetLink = realMail;
    }
    expect(await resetMailsTo(t, user.email)).toHaveLength(2);
  }, 60_000);
});

describe('the pre-limiter', () => {
  it('lets a slot pass to the next in line and refuses past the line', async () => {
    const gate = new PreLimiter({ perKey: 5, windowSeconds: 60, inFlight: 1, waiting: 1 });
    const first = await gate.enter('a');
    expect(first.ok).toBe(true);
    const second = gate.enter('b');
    const third = await gate.enter('c');
    expect(third).toEqual({ ok: false, retryAfterSeconds: 1 });
    if (first.ok) first.release();
    const admitted = await second;
    expect(admitted.ok).toBe(true);
    if (admitted.ok) admitted.release();
    for (let i = 0; i < 4; i++) {
      const v = await gate.enter('a');
      if (v.ok) v.release();
    }
    const over = await gate.enter('a');
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.retryAfterSeconds).toBeGreaterThan(50);
  });
});
