import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountMessages } from '../src/shared/account.messages.js';
import { authMessages } from '../src/shared/auth.messages.js';
import { apiKeyMessages } from '../src/shared/api-keys.schema.js';
import { createTestApp, registerUser, type TestApp } from './helpers/test-app.js';
import { freshNet } from './helpers/fresh.js';
import { resetMailsTo } from './helpers/reset-mail.js';

/**
 * Password reset under attack, and what an API key can no longer do (issue
 * 22): the reset is throttled like sign-in and never hashes for a made-up
 * link; asking for a link answers before the account is looked up; a new
 * password revokes every API key; a key never reaches a checkout.
 */

// Every new password hashed, counted: a refused reset must hash nothing.
const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock('../src/server/features/auth/password.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/server/features/auth/password.js')>();
  return {
    ...real,
    hashPassword: async (password: string) => {
      hashes.count += 1;
      return real.hashPassword(password);
    },
  };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://localhost:3999' });
});
afterAll(() => t?.close());

const forgot = (email: string, ip: string) => t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, remoteAddress: ip });
const reset = (token: string, password: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password, confirmPassword: password }, remoteAddress: ip });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function resetLinkOf(email: string, ip: string): Promise<string> {
  expect((await forgot(email, ip)).statusCode).toBe(200);
  const [newest] = await resetMailsTo(t, email);
  return /token=([\w-]+)/.exec(newest!)![1]!;
}

async function createKey(headers: Record<string, string>) {
  const res = await t.app.inject({ method: 'POST', url: '/api/keys', headers, payload: { name: 'script' } });
  expect(res.statusCode).toBe(201);
  return (res.json() as { token: string }).token;
}

describe('setting a password with a reset link', () => {
  it('a made-up link is refused before any hashing, and one address gets 20 tries a minute', async () => {
    hashes.count = 0;
    const ip = `${freshNet('192.0')}.10`;
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => reset(`made-up-${i}`, 'new-password-1', ip)));
    expect(hashes.count).toBe(0);
    const refused = answers.filter((a) => a.statusCode === 400);
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(20);
    expect(limited).toHaveLength(10);
    expect(refused[0]!.json()).toMatchObject({ error: accountMessages.resetLinkInvalid, code: 'validation' });
    expect(limited[0]!.json()).toMatchObject({ error: authMessages.tooManyAttempts, code: 'rate_limited' });
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another address is not held up by this one.
    expect((await reset('made-up-x', 'new-password-1', '192.0.2.11')).statusCode).toBe(400);
  });

  it('a throttled address cannot use even a good link until the minute has passed', async () => {
    const user = await registerUser(t);
    const token = await resetLinkOf(user.email, '192.0.2.20');
    const ip = '192.0.2.21';
    for (let i = 0; i < 20; i++) await reset(`made-up-${i}`, 'new-password-1', ip);
    hashes.count = 0;
    expect((await reset(token, 'new-password-2', ip)).statusCode).toBe(429);
    expect(hashes.count).toBe(0);
    expect((await reset(token, 'new-password-2', '192.0.2.22')).statusCode).toBe(200);
    expect(hashes.count).toBe(1);
  });

  it('revokes every API key, and says so on the page before the change', async () => {
    const user = await registerUser(t);
    const key = await createKey(user.headers);
    expect((await t.app.inject({ url: '/api/me', headers: bearer(key) })).statusCode).toBe(200);
    const token = await resetLinkOf(user.email, '192.0.2.30');
    expect((await reset(token, 'new-password-3', '192.0.2.30')).statusCode).toBe(200);
    const after = await t.app.inject({ url: '/api/me', headers: bearer(key) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe(apiKeyMessages.invalid);
  });
});

describe('asking for a reset link', () => {
  it('answers before the account is looked up: a known address does not wait for its link and mail', async () => {
    const user = await registerUser(t);
    const unknown = await forgot('nobody-at-all@example.com', '192.0.2.41');
    // The known address's mail is held (inside its transaction) until the answer is in.
    const mail = t.ctx.services.mail;
    const realSend = mail.send.bind(mail);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    mail.send = (async (...args: Parameters<typeof realSend>) => {
      await gate;
      return realSend(...args);
    }) as typeof mail.send;
    try {
      const timeout = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 3000));
      const known = await Promise.race([forgot(user.email, '192.0.2.40'), timeout]);
      expect(known).not.toBe('waited');
      if (known === 'waited') return;
      expect(known.statusCode).toBe(200);
      expect(known.body).toBe(unknown.body);
    } finally {
      release();
      mail.send = realSend;
    }
    expect(await resetMailsTo(t, user.email)).toHaveLength(1);
  });
});

describe('changing the password', () => {
  it('revokes every API key; the session that changed it stays', async () => {
    const user = await registerUser(t);
    const key = await createKey(user.headers);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: user.headers,
      payload: { currentPassword: 'password123', newPassword: 'changed-pass-1', confirmPassword: 'changed-pass-1' },
    });
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/me', headers: bearer(key) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/me', headers: user.headers })).statusCode).toBe(200);
  });
});

describe('an API key and the checkout', () => {
  it('cannot start a checkout, see the test checkout page or pay it; the session that started it can', async () => {
    const buyer = await registerUser(t);
    const key = await createKey(buyer.headers);
    const payload = { price_id: 'price_pixelrush_starter', mode: 'payment', success_url: 'http://localhost:3999/success', cancel_url: 'http://localhost:3999/dashboard' };
    const byKey = await t.app.inject({ method: 'POST', url: '/functions/v1/stripe-checkout', headers: bearer(key), payload });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error).toBe(apiKeyMessages.notAllowed);
    const started = await t.app.inject({ method: 'POST', url: '/functions/v1/stripe-checkout', headers: buyer.headers, payload });
    expect(started.statusCode).toBe(200);
    const { session_id } = started.json() as { session_id: string };

    const page = await t.app.inject({ url: `/checkout/test/${session_id}`, headers: bearer(key) });
    expect(page.statusCode).toBe(302);
    expect(page.body).not.toContain(buyer.email);
    const pay = await t.app.inject({
      method: 'POST',
      url: `/checkout/test/${session_id}/pay`,
      headers: { ...bearer(key), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'card_number=4242424242424242&expiry=12%2F34&cvc=123',
    });
    expect(pay.statusCode).toBe(302);
    expect((await t.app.inject({ url: `/api/checkout/sessions/${session_id}`, headers: buyer.headers })).json()).toMatchObject({ status: 'pending' });
    for (const url of ['/api/account', '/api/account/sessions', '/api/purchases']) {
      const res = await t.app.inject({ url, headers: bearer(key) });
      expect(res.statusCode, url).toBe(403);
    }
    expect((await t.app.inject({ url: `/checkout/test/${session_id}`, headers: buyer.headers })).statusCode).toBe(200);
  });
});
