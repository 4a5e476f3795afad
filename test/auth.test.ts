import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../src/shared/auth.messages.js';
import { registrationMessages } from '../src/shared/registration.messages.js';
import { registrationError } from '../src/shared/registration.js';
import { createTestApp, registerUser, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'boss@example.com' });
});
afterAll(() => t.close());

const signUp = (payload: Record<string, unknown>, ip = '192.0.2.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', payload, remoteAddress: ip });
const signIn = (payload: Record<string, unknown>, ip = '192.0.2.2') =>
  t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload, remoteAddress: ip });

describe('registration rules (requirements §5)', () => {
  const ok = { name: 'Ann', email: 'ann@example.com', password: 'secret1', confirmPassword: 'secret1', acceptTerms: true, confirmAge: true };
  it.each([
    [{ ...ok, name: '  ' }, registrationMessages.nameRequired],
    [{ ...ok, email: '' }, authMessages.emailRequired],
    [{ ...ok, email: 'not-an-email' }, registrationMessages.emailInvalid],
    [{ ...ok, password: '', confirmPassword: '' }, authMessages.passwordRequired],
    [{ ...ok, confirmPassword: 'secret2' }, registrationMessages.passwordsMismatch],
    [{ ...ok, password: 'abc12', confirmPassword: 'abc12' }, registrationMessages.passwordTooShort],
    [{ ...ok, acceptTerms: false }, registrationMessages.termsRequired],
    [{ ...ok, confirmAge: false }, registrationMessages.ageRequired],
    [{ ...ok, referralOnly: true, inviteCode: '  ' }, registrationMessages.inviteRequired],
    [ok, null],
    [{ ...ok, referralOnly: true, inviteCode: 'abc' }, null],
  ])('%# -> %s', (input, expected) => {
    expect(registrationError(input)).toBe(expected);
  });

  it('the spec messages are exact', () => {
    expect(registrationMessages.passwordsMismatch).toBe('Passwords do not match');
    expect(registrationMessages.passwordTooShort).toBe('Password must be at least 6 characters long');
    expect(registrationMessages.termsRequired).toBe('You must agree to the Terms of Service to create an account');
    expect(registrationMessages.ageRequired).toBe('You must be at least 18 years old to use this service');
    expect(registrationMessages.inviteRequired).toBe('Invite code is required to create an account');
  });

  it('the server enforces them with 400 and the spec message', async () => {
    const res = await signUp({ ...ok, email: 'short@example.com', password: 'abc', confirmPassword: 'abc' }, '192.0.2.50');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: registrationMessages.passwordTooShort, code: 'validation', request_id: expect.any(String) });
    const terms = await signUp({ ...ok, email: 'terms@example.com', acceptTerms: false }, '192.0.2.50');
    expect(terms.json().error).toBe(registrationMessages.termsRequired);
    const rows = await t.db.query("SELECT 1 FROM users WHERE email IN ('short@example.com', 'terms@example.com')");
    expect(rows).toHaveLength(0);
  });
});

describe('accounts', () => {
  it('sign-up returns a token, creates a profile with 0 ENERGY and keeps the full name', async () => {
    const res = await signUp({ name: '  Grace Hopper ', email: 'Grace@Example.com', password: 'cobol-rules' }, '192.0.2.10');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper' });
    expect(res.cookies.find((c) => c.name === 'pr_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    const me = await t.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${body.token}` } });
    expect(me.json()).toEqual({
      id: body.user.id,
      email: 'grace@example.com',
      full_name: 'Grace Hopper',
      energy_balance: 0,
      energy_owed: 0,
      total_energy_purchased: 0,
      is_vip: false,
      is_admin: false,
    });
  });

  it('the session cookie works like the bearer token', async () => {
    const res = await signUp({ name: 'Cookie', email: 'cookie@example.com', password: 'cookie-jar' }, '192.0.2.11');
    const me = await t.app.inject({ url: '/api/me', cookies: { pr_session: res.json().token } });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('cookie@example.com');
  });

  it('passwords are stored as argon2id hashes, never in clear', async () => {
    await signUp({ name: 'Hash', email: 'hash@example.com', password: 'my-secret-pw' }, '192.0.2.12');
    const [row] = await t.db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE email = 'hash@example.com'");
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.password_hash).not.toContain('my-secret-pw');
  });

  it('a second account with the same e-mail is refused', async () => {
    await signUp({ name: 'One', email: 'dup@example.com', password: 'password1' }, '192.0.2.13');
    const res = await signUp({ name: 'Two', email: 'DUP@example.com', password: 'password2' }, '192.0.2.13');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(registrationMessages.emailTaken);
  });

  it('sign-in works with any e-mail case; a new session each time', async () => {
    await signUp({ name: 'Case', email: 'case@example.com', password: 'password1' }, '192.0.2.14');
    const a = await signIn({ email: 'CASE@example.com', password: 'password1' });
    const b = await signIn({ email: 'case@example.com', password: 'password1' });
    expect(a.statusCode).toBe(200);
    expect(a.json().token).not.toBe(b.json().token);
  });

  it('unknown e-mail and wrong password answer identically', async () => {
    await signUp({ name: 'Same', email: 'same@example.com', password: 'password1' }, '192.0.2.15');
    const wrong = await signIn({ email: 'same@example.com', password: 'nope-nope' }, '192.0.2.16');
    const unknown = await signIn({ email: 'nobody@example.com', password: 'nope-nope' }, '192.0.2.17');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    // The same answer; only the request's own id differs.
    expect({ ...wrong.json(), request_id: null }).toEqual({ ...unknown.json(), request_id: null });
    expect(wrong.json()).toEqual({ error: authMessages.invalidCredentials, code: 'unauthenticated', request_id: expect.any(String) });
  });

  it('sign-out ends the session on the server', async () => {
    const user = await registerUser(t);
    expect((await t.app.inject({ url: '/api/me', headers: user.headers })).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: user.headers });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ url: '/api/me', headers: user.headers });
    expect(after.statusCode).toBe(401);
    // The cookie path is revoked too: it is the same session.
    expect((await t.app.inject({ url: '/api/me', cookies: { pr_session: user.token } })).statusCode).toBe(401);
  });

  it('an expired session is refused and removed', async () => {
    const user = await registerUser(t);
    await t.db.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1", [user.id]);
    const res = await t.app.inject({ url: '/api/me', headers: user.headers });
    expect(res.statusCode).toBe(401);
    expect(await t.db.query('SELECT 1 FROM sessions WHERE user_id = $1', [user.id])).toHaveLength(0);
  });

  it('calls without a token get the spec message', async () => {
    const res = await t.app.inject({ url: '/api/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('No authentication token found');
    const forged = await t.app.inject({ url: '/api/me', headers: { authorization: 'Bearer forged' } });
    expect(forged.statusCode).toBe(401);
  });

  it('a missing profile is created with 0 / 0 on first read', async () => {
    const user = await registerUser(t);
    await t.db.query('DELETE FROM user_profiles WHERE id = $1', [user.id]);
    const me = await t.app.inject({ url: '/api/me', headers: user.headers });
    expect(me.json()).toMatchObject({ energy_balance: 0, total_energy_purchased: 0 });
  });
});

describe('throttling (reliability A2)', () => {
  it('the 11th sign-in for an account within a minute from strangers gets 429, even with the right password', async () => {
    await signUp({ name: 'Target', email: 'target@example.com', password: 'password1' }, '198.51.100.1');
    for (let i = 0; i < 10; i++) {
      // Different IPs: the per-account limit must hold on its own.
      const res = await signIn({ email: 'target@example.com', password: `wrong-${i}` }, `198.51.100.${10 + i}`);
      expect(res.statusCode).toBe(401);
    }
    const blocked = await signIn({ email: 'target@example.com', password: 'password1' }, '198.51.100.99');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe(authMessages.tooManyAttempts);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The owner at an address the account signed in from keeps a door of their own.
    expect((await signIn({ email: 'target@example.com', password: 'password1' }, '198.51.100.1')).statusCode).toBe(200);
  });

  it('the 21st attempt from one IP in a minute gets 429 whatever the account', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await signIn({ email: `spray${i}@example.com`, password: 'guess' }, '203.0.113.7');
      expect(res.statusCode).toBe(401);
    }
    expect((await signIn({ email: 'spray-next@example.com', password: 'guess' }, '203.0.113.7')).statusCode).toBe(429);
    // Another address is not affected.
    expect((await signIn({ email: 'spray-next@example.com', password: 'guess' }, '203.0.113.8')).statusCode).toBe(401);
  });

  it('registration attempts are throttled per IP, failed or not', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await signUp({ name: 'X', email: `bad${i}@example.com`, password: '1' }, '203.0.113.20');
      expect(res.statusCode).toBe(400);
    }
    const res = await signUp({ name: 'X', email: 'fine@example.com', password: 'password1' }, '203.0.113.20');
    expect(res.statusCode).toBe(429);
    // Failed sign-ups do not count against signing in from that address.
    expect((await signIn({ email: 'fine@example.com', password: 'password1' }, '203.0.113.20')).statusCode).toBe(401);
  });
});

describe('roles', () => {
  it('ADMIN_EMAILS makes the account admin at sign-up; the status checks answer from the server', async () => {
    const res = await signUp({ name: 'Boss', email: 'Boss@example.com', password: 'password1' }, '192.0.2.30');
    const headers = { authorization: `Bearer ${res.json().token}` };
    const admin = await t.app.inject({ method: 'POST', url: '/functions/v1/check-admin-status', headers });
    expect(admin.json()).toEqual({ isAdmin: true });
    const vip = await t.app.inject({ method: 'POST', url: '/functions/v1/check-vip-status', headers });
    expect(vip.json()).toEqual({ isVip: false });
  });

  it('ADMIN_EMAILS applies at start to existing accounts', async () => {
    const user = await registerUser(t, { email: 'later-admin@example.com' });
    const before = await t.app.inject({ method: 'POST', url: '/functions/v1/check-admin-status', headers: user.headers });
    expect(before.json()).toEqual({ isAdmin: false });
    const { AuthService } = await import('../src/server/features/auth/auth.service.js');
    await new AuthService(t.db, ['later-admin@example.com']).applyAdminEmails();
    const after = await t.app.inject({ method: 'POST', url: '/functions/v1/check-admin-status', headers: user.headers });
    expect(after.json()).toEqual({ isAdmin: true });
  });

  it('a VIP is VIP and not admin', async () => {
    const user = await registerUser(t, { role: 'vip' });
    const vip = await t.app.inject({ method: 'POST', url: '/functions/v1/check-vip-status', headers: user.headers });
    expect(vip.json()).toEqual({ isVip: true });
    const me = await t.app.inject({ url: '/api/me', headers: user.headers });
    expect(me.json()).toMatchObject({ is_vip: true, is_admin: false });
  });

  it('status checks refuse anonymous callers', async () => {
    for (const url of ['/functions/v1/check-admin-status', '/functions/v1/check-vip-status']) {
      expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(401);
    }
  });
});

describe('GET /api/auth/session: who is here, without a 401 for visitors', () => {
  const session = (opts: { headers?: Record<string, string>; cookies?: Record<string, string> } = {}) =>
    t.app.inject({ url: '/api/auth/session', ...opts });

  it('a visitor gets 200 and null', async () => {
    const res = await session();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null });
  });

  it('a signed-in browser gets the same profile as /api/me', async () => {
    const user = await registerUser(t);
    const res = await session({ cookies: { pr_session: user.token } });
    expect(res.statusCode).toBe(200);
    const me = await t.app.inject({ url: '/api/me', headers: user.headers });
    expect(res.json()).toEqual({ user: me.json() });
  });

  it('forged, signed-out and expired tokens are visitors, and the dead cookie is cleared', async () => {
    for (const headers of [{ authorization: 'Bearer forged' }, { authorization: 'Bearer pr_live_0000000000000000000000000000' }]) {
      const res = await session({ headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ user: null });
    }
    const user = await registerUser(t);
    await t.db.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1", [user.id]);
    const expired = await session({ cookies: { pr_session: user.token } });
    expect(expired.statusCode).toBe(200);
    expect(expired.json()).toEqual({ user: null });
    const cleared = expired.cookies.find((c) => c.name === 'pr_session');
    expect(cleared?.value).toBe('');
    // Nothing from the query string or body turns a visitor into someone.
    const smuggled = await t.app.inject({ url: `/api/auth/session?user_id=${user.id}&token=${user.token}` });
    expect(smuggled.json()).toEqual({ user: null });
  });
});
