import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { createMemoryMedia } from './helpers/memory-media.js';
import { suspensionMessages } from '../src/shared/account.messages.js';
import { authMessages } from '../src/shared/auth.messages.js';
import type { RealtimeEvent } from '../src/server/realtime/realtime-hub.js';

// Decision 028: an admin suspends an account at once (sessions and API keys stop, unfinished runs
// are cancelled and refunded, the owner is told why at sign-in), audited; the last admin who can
// sign in cannot be suspended.
describe('suspend and reinstate an account', () => {
  let t: TestApp;
  let admin: TestUser;
  const fake = createFakeAiProvider({ delayMs: 0 });

  beforeAll(async () => {
    t = await createTestApp({}, { provider: fake, media: createMemoryMedia(), concurrency: 1, perUserConcurrency: 1 });
    admin = await registerUser(t, { role: 'admin' });
  });
  afterAll(() => t.close());

  const books = async (userId: string) => {
    const [row] = await t.db.query<{ energy_balance: number; ledger_sum: number }>(
      `SELECT p.energy_balance, COALESCE((SELECT SUM(amount) FROM energy_transactions WHERE user_id = p.id), 0)::int AS ledger_sum
         FROM user_profiles p WHERE p.id = $1`,
      [userId],
    );
    expect(row!.ledger_sum).toBe(row!.energy_balance);
    return row!.energy_balance;
  };
  const signIn = (email: string, password: string, ip = '198.51.100.7') =>
    t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password }, remoteAddress: ip });
  const suspend = (who: TestUser, id: string, payload: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/admin/users/${id}/suspend`, headers: who.headers, payload });
  const reinstate = (who: TestUser, id: string) => t.app.inject({ method: 'POST', url: `/api/admin/users/${id}/reinstate`, headers: who.headers });
  const run = (headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: { ...headers, prefer: 'respond-async' }, payload: { image_url: 'https://x.test/s.png' } });

  it('stops sessions and API keys at once, cancels and refunds unfinished runs, tells the owner at sign-in, and is audited', async () => {
    const u = await registerUser(t, { password: 'suspend-me-1', energy: 100 });
    const second = (await signIn(u.email, 'suspend-me-1')).json().token as string;
    const key = (await t.app.inject({ method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'script' } })).json().token as string;
    const keyHeaders = { authorization: `Bearer ${key}` };
    expect((await t.app.inject({ url: '/api/me', headers: keyHeaders })).statusCode).toBe(200);

    // A live stream of the account, as the hub sees it.
    await t.ctx.services.realtime.ready();
    const heard: RealtimeEvent[] = [];
    let closed = false;
    t.ctx.services.realtime.subscribe(u.id, { send: (e) => heard.push(e), heartbeat() {}, close: () => (closed = true) });

    // One run held running, two waiting behind it (one worker).
    fake.behaviour.delayMs = 60_000;
    const jobs: string[] = [];
    try {
      for (const headers of [u.headers, u.headers, keyHeaders]) {
        const res = await run(headers);
        expect(res.statusCode).toBe(202);
        jobs.push(res.json().job_id);
      }
      const before = await books(u.id);
      expect(before).toBeLessThan(100);

      const res = await suspend(admin, u.id, { reason: 'chargeback abuse' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ user_id: u.id, suspended: true, sessions_ended: 2, runs_cancelled: 3 });
    } finally {
      fake.behaviour.delayMs = 0;
    }

    for (const headers of [u.headers, { authorization: `Bearer ${second}` }, keyHeaders]) {
      const me = await t.app.inject({ url: '/api/me', headers });
      expect(me.statusCode).toBe(401);
    }
    expect((await run(keyHeaders)).statusCode).toBe(401);
    const ended = await t.db.query<{ status: string; error_code: string; error: string }>('SELECT status, error_code, error FROM tool_jobs WHERE id = ANY($1::uuid[])', [jobs]);
    expect(ended).toHaveLength(3);
    for (const j of ended) expect(j).toEqual({ status: 'canceled', error_code: 'suspended', error: suspensionMessages.runCancelled });
    expect(await books(u.id)).toBe(100);
    const refunds = await t.db.query("SELECT 1 FROM energy_transactions WHERE user_id = $1 AND type = 'refund'", [u.id]);
    expect(refunds).toHaveLength(3);

    expect(heard.map((e) => e.type)).toContain('account_suspended');
    expect(closed).toBe(true);
    expect(t.ctx.services.realtime.streamsOf(u.id)).toBe(0);

    // The owner, with the right password, is told why; a wrong password learns nothing more.
    const refused = await signIn(u.email, 'suspend-me-1');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: suspensionMessages.signIn, code: 'account_suspended' });
    const guess = await signIn(u.email, 'not-the-password');
    expect(guess.statusCode).toBe(401);
    expect(guess.json().error).toBe(authMessages.invalidCredentials);

    // No run is charged for a suspended account, by any way in (a request that got past sign-in a moment before).
    await expect(t.ctx.services.tools.submit.submit({ id: u.id, role: 'user' }, 'fal-upscaler', { image_url: 'https://x.test/late.png' })).rejects.toMatchObject({ code: 'account_suspended' });
    expect(await books(u.id)).toBe(100);

    const listed = (await t.app.inject({ url: `/api/admin/users?query=${encodeURIComponent(u.email)}`, headers: admin.headers })).json();
    expect(listed.items[0]).toMatchObject({ suspended_reason: 'chargeback abuse', suspended_at: expect.any(String) });
    // Suspending again changes nothing and cancels nothing.
    expect((await suspend(admin, u.id)).json()).toMatchObject({ suspended: true, sessions_ended: 0, runs_cancelled: 0 });

    // Reinstated: sign-in works, and the key (never revoked) works again.
    expect((await reinstate(admin, u.id)).json()).toEqual({ user_id: u.id, suspended: false, sessions_ended: 0, runs_cancelled: 0 });
    expect((await signIn(u.email, 'suspend-me-1')).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/me', headers: keyHeaders })).statusCode).toBe(200);

    const audit = await t.db.query<{ action: string; new_value: Record<string, unknown> }>(
      "SELECT action, new_value FROM admin_audit WHERE target = $1 AND action IN ('suspend_user', 'reinstate_user') ORDER BY id",
      [u.id],
    );
    expect(audit).toEqual([
      { action: 'suspend_user', new_value: { suspended: true, reason: 'chargeback abuse', sessions_ended: 2 } },
      { action: 'reinstate_user', new_value: { suspended: false } },
    ]);
  });

  it('only an admin suspends; not their own account; an unknown account is 404', async () => {
    const u = await registerUser(t);
    const other = await registerUser(t);
    expect((await suspend(u, other.id)).statusCode).toBe(403);
    expect((await reinstate(u, other.id)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/users/${other.id}/suspend`, payload: {} })).statusCode).toBe(401);
    const own = await suspend(admin, admin.id);
    expect(own.statusCode).toBe(409);
    expect(own.json().error).toBe(suspensionMessages.ownAccount);
    expect((await suspend(admin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await suspend(admin, 'not-a-uuid')).statusCode).toBe(404);
    expect((await suspend(admin, other.id, { reason: 'x'.repeat(201) })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/me', headers: other.headers })).statusCode).toBe(200);
  });

  it('the last admin who can sign in cannot be suspended: two admins suspending each other, the second is refused', async () => {
    const a = await registerUser(t, { role: 'admin' });
    const b = await registerUser(t, { role: 'admin' });
    // Park every other admin, so a and b are the only ones who can act.
    await t.db.query("UPDATE users SET suspended_at = now() WHERE role = 'admin' AND id <> ALL($1::uuid[])", [[a.id, b.id]]);
    try {
      expect((await suspend(a, b.id)).statusCode).toBe(200);
      // b's request was signed in a moment before it was suspended.
      const stale = { id: b.id, email: b.email, fullName: 'B', role: 'admin' as const, sessionId: '', emailVerified: true };
      await expect(t.ctx.services.admin.suspend(stale, a.id)).rejects.toMatchObject({ code: 'conflict', message: suspensionMessages.lastAdmin });
      // A suspended admin's late request acts on nobody else either.
      const user = await registerUser(t);
      await expect(t.ctx.services.admin.suspend(stale, user.id)).rejects.toMatchObject({ code: 'forbidden' });
      await expect(t.ctx.services.admin.reinstate(stale, b.id)).rejects.toMatchObject({ code: 'forbidden' });
      expect((await t.app.inject({ url: '/api/me', headers: a.headers })).statusCode).toBe(200);
      // Account deletion counts only admins who can sign in, too.
      const del = await t.app.inject({ method: 'POST', url: '/api/account/delete', headers: a.headers, payload: { password: 'password123', confirm: 'DELETE' } });
      expect(del.statusCode).toBe(409);
    } finally {
      await t.db.query("UPDATE users SET suspended_at = NULL WHERE role = 'admin'");
    }
  });
});
