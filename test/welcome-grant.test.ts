import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithUser, createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { linkIn, startSmtpSink, type SmtpSink } from './helpers/smtp-sink.js';
import { welcomeGrantMessages } from '../src/shared/settings.schema.js';

// Decision 028: an optional welcome grant, set by the admin (0 by default), given through the
// ledger once per account and never twice to one e-mail address, even after the account is deleted.

interface Books {
  energy_balance: number;
  ledger_sum: number;
  welcomes: number;
}

async function books(t: TestApp, userId: string): Promise<Books> {
  const [row] = await t.db.query<Books>(
    `SELECT p.energy_balance,
            COALESCE((SELECT SUM(amount) FROM energy_transactions WHERE user_id = p.id), 0)::int AS ledger_sum,
            (SELECT count(*) FROM energy_transactions WHERE user_id = p.id AND type = 'welcome')::int AS welcomes
       FROM user_profiles p WHERE p.id = $1`,
    [userId],
  );
  expect(row!.ledger_sum).toBe(row!.energy_balance);
  return row!;
}

const setGrant = (t: TestApp, who: TestUser, body: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/admin/welcome-grant', headers: who.headers, payload: body as Record<string, unknown> });

describe('welcome grant', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => ({ t, user: admin } = await appWithUser({ role: 'admin' })));
  afterAll(() => t.close());

  it('is 0 by default: a new account starts with nothing and no welcome entry', async () => {
    expect((await t.app.inject({ url: '/api/admin/welcome-grant', headers: admin.headers })).json()).toEqual({ welcome_energy: 0 });
    const u = await registerUser(t);
    expect(await books(t, u.id)).toEqual({ energy_balance: 0, ledger_sum: 0, welcomes: 0 });
  });

  it('only an admin reads or sets it; out-of-range values are refused with one message; a change is audited', async () => {
    const user = await registerUser(t);
    expect((await setGrant(t, user, { welcome_energy: 500 })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/welcome-grant', headers: user.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: '/api/admin/welcome-grant', payload: { welcome_energy: 5 } })).statusCode).toBe(401);
    for (const bad of [-1, 2.5, 100_001, '10', null]) {
      const res = await setGrant(t, admin, { welcome_energy: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().error).toBe(welcomeGrantMessages.range);
    }
    expect((await t.app.inject({ url: '/api/admin/welcome-grant', headers: admin.headers })).json()).toEqual({ welcome_energy: 0 });

    expect((await setGrant(t, admin, { welcome_energy: 25 })).json()).toEqual({ welcome_energy: 25 });
    const audit = await t.db.query<{ old_value: unknown; new_value: unknown }>("SELECT old_value, new_value FROM admin_audit WHERE action = 'set_welcome_energy'");
    expect(audit).toEqual([{ old_value: { welcome_energy: 0 }, new_value: { welcome_energy: 25 } }]);
  });

  it('a new account gets it once, through the ledger; the same address never again, not after deletion, not in other capitals', async () => {
    expect((await setGrant(t, admin, { welcome_energy: 25 })).statusCode).toBe(200);
    const email = `welcome-${Date.now()}@example.com`;
    const first = await registerUser(t, { email, password: 'welcome-pass' });
    expect(await books(t, first.id)).toEqual({ energy_balance: 25, ledger_sum: 25, welcomes: 1 });
    const [entry] = await t.db.query<{ type: string; amount: number; description: string }>("SELECT type, amount, description FROM energy_transactions WHERE user_id = $1", [first.id]);
    expect(entry).toEqual({ type: 'welcome', amount: 25, description: 'Welcome grant: 25 ENERGY' });
    // The welcome entry shows in the user's own history like any other.
    const history = (await t.app.inject({ url: '/api/transactions', headers: first.headers })).json();
    expect(history.items.map((i: { type: string }) => i.type)).toEqual(['welcome']);

    // Deleted, then the same address signs up again: no second grant.
    const del = await t.app.inject({ method: 'POST', url: '/api/account/delete', headers: first.headers, payload: { password: 'welcome-pass', confirm: 'DELETE' } });
    expect(del.statusCode).toBe(200);
    const again = await registerUser(t, { email: email.toUpperCase() });
    expect(await books(t, again.id)).toEqual({ energy_balance: 0, ledger_sum: 0, welcomes: 0 });
    // The kept record holds no readable address.
    const kept = await t.db.query<{ email_key: string }>('SELECT email_key FROM welcome_grants');
    for (const k of kept) expect(k.email_key).toMatch(/^[0-9a-f]{64}$/);

    // Another address still gets it; the service refuses a second one for the same account.
    const other = await registerUser(t);
    expect((await books(t, other.id)).energy_balance).toBe(25);
    const twice = await t.db.transaction((tx) => t.ctx.services.energy.welcome(other.id, 25, tx));
    expect(twice).toBe(false);
    expect(await books(t, other.id)).toEqual({ energy_balance: 25, ledger_sum: 25, welcomes: 1 });

    // Set back to 0: new accounts get nothing again.
    await setGrant(t, admin, { welcome_energy: 0 });
    expect((await books(t, (await registerUser(t)).id)).energy_balance).toBe(0);
  });
});

describe('welcome grant with e-mail confirmation on', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3999', EMAIL_VERIFICATION: 'on', DATA_DIR: `./.tmp/welcome-${process.pid}` }, { provider: createFakeAiProvider() });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('waits for the confirmation, is given then, and a second confirmation link gives nothing more', async () => {
    const admin = await registerUser(t, { role: 'admin' });
    expect((await setGrant(t, admin, { welcome_energy: 40 })).statusCode).toBe(200);
    const u = await registerUser(t);
    expect((await books(t, u.id)).energy_balance).toBe(0);
    const mail = await smtp.waitFor(u.email, /Confirm your e-mail/);
    const token = linkIn(mail, '/verify-email?token=').searchParams.get('token')!;
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } })).statusCode).toBe(200);
    expect(await books(t, u.id)).toEqual({ energy_balance: 40, ledger_sum: 40, welcomes: 1 });

    // A confirmation link asked for again (an old one is spent): nothing more.
    await t.ctx.db.query('UPDATE users SET email_verified_at = NULL WHERE id = $1', [u.id]);
    await t.app.inject({ method: 'POST', url: '/api/account/verification', headers: u.headers });
    await expect.poll(() => smtp.to(u.email).length, { timeout: 20_000 }).toBe(2);
    const again = await smtp.waitFor(u.email, /Confirm your e-mail/);
    const token2 = linkIn(again, '/verify-email?token=').searchParams.get('token')!;
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token: token2 } })).statusCode).toBe(200);
    expect(await books(t, u.id)).toEqual({ energy_balance: 40, ledger_sum: 40, welcomes: 1 });
  });
});
