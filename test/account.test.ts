import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { accountMessages } from '../src/shared/account.messages.js';
import { registrationMessages } from '../src/shared/registration.messages.js';
import { parseConfig } from '../src/server/config.js';
import { describeDevice } from '../src/server/features/account/account.service.js';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { linkIn, startSmtpSink, type SmtpSink } from './helpers/smtp-sink.js';
import { readZip } from './helpers/zip.js';
import { upload } from './library.fixtures.js';

const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const FIREFOX_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

let smtp: SmtpSink;
let t: TestApp;
let ipSeq = 0;
const nextIp = () => `198.51.100.${(ipSeq += 1)}`;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp(
    { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3999', DATA_DIR: `./.tmp/account-${process.pid}` },
    { provider: createFakeAiProvider({ delayMs: 0 }) },
  );
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const signIn = (email: string, password: string, ua = CHROME_MAC, ip = nextIp()) =>
  t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password }, headers: { 'user-agent': ua }, remoteAddress: ip });
const forgot = (email: string, ip = nextIp()) =>
  t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, remoteAddress: ip });
const reset = (token: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password, confirmPassword: password } });
const me = (token: string) => t.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('password reset by e-mail (through a real SMTP server)', () => {
  it('mails a single-use link; using it sets the password and ends every session', async () => {
    const user = await registerUser(t, { password: 'old-password' });
    const laptop = (await signIn(user.email, 'old-password')).json().token as string;
    expect((await me(laptop)).statusCode).toBe(200);

    const res = await forgot(user.email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: accountMessages.resetRequested });

    const mail = await smtp.waitFor(user.email, /Reset your PixelRush password/);
    expect(mail.text).toContain('30 minutes');
    expect(mail.text).toContain('http://localhost:3999');
    expect(mail.html).toContain('Choose a new password');
    const link = linkIn(mail, '/reset-password?token=');
    expect(link.origin).toBe('http://localhost:3999');
    const token = link.searchParams.get('token')!;

    // Only the hash is stored.
    const stored = await t.db.query<{ id: string }>(`SELECT id FROM account_tokens WHERE user_id = $1 AND purpose = 'password_reset'`, [user.id]);
    expect(stored.map((r) => r.id)).toEqual([createHash('sha256').update(token).digest('hex')]);
    // A sent SMTP mail keeps no body (and so no link) in the database. The
    // sink has the mail a moment before the worker records it as sent.
    await expect
      .poll(async () => (await t.db.query<{ status: string; text_body: string | null }>(`SELECT status, text_body FROM mail_messages WHERE user_id = $1`, [user.id]))[0])
      .toEqual({ status: 'sent', text_body: null });

    const done = await reset(token, 'new-password');
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe(accountMessages.passwordReset);

    expect((await me(laptop)).statusCode).toBe(401);
    expect((await me(user.token)).statusCode).toBe(401);
    expect((await signIn(user.email, 'old-password')).statusCode).toBe(401);
    expect((await signIn(user.email, 'new-password')).statusCode).toBe(200);

    const again = await reset(token, 'third-password');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: accountMessages.resetLinkInvalid, code: 'validation' });
    expect((await signIn(user.email, 'third-password')).statusCode).toBe(401);
  });

  it('a link expires after 30 minutes', async () => {
    const user = await registerUser(t);
    await forgot(user.email);
    const token = linkIn(await smtp.waitFor(user.email, /Reset/), '/reset-password?token=').searchParams.get('token')!;
    const [row] = await t.db.query<{ minutes: number }>(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes FROM account_tokens WHERE user_id = $1`,
      [user.id],
    );
    expect(row.minutes).toBe(30);
    await t.db.query(`UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [user.id]);
    const res = await reset(token, 'too-late-1');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(accountMessages.resetLinkInvalid);
    expect((await signIn(user.email, 'password123')).statusCode).toBe(200);
  });

  it('new passwords follow the sign-up rules', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: 'x', password: 'abc', confirmPassword: 'abc' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(registrationMessages.passwordTooShort);
  });

  it('answers the same for known and unknown addresses, and mails only the known one', async () => {
    const user = await registerUser(t);
    const known = await forgot(user.email);
    const unknown = await forgot('nobody-here@example.com');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());
    await smtp.waitFor(user.email, /Reset/);
    // The lookups and mails run after the answer; once that background work
    // has settled, a mail to the unknown address would be a stored row.
    await t.ctx.services.account.settled();
    const rows = await t.db.query(`SELECT 1 FROM mail_messages WHERE to_address = 'nobody-here@example.com'`);
    expect(rows).toHaveLength(0);
    expect(smtp.to('nobody-here@example.com')).toHaveLength(0);
  });

  it('is throttled per address (3 per 15 minutes) whatever the IP, and per IP (10 per 15 minutes)', async () => {
    const user = await registerUser(t);
    for (let i = 0; i < 3; i++) expect((await forgot(user.email)).statusCode).toBe(200);
    const fourth = await forgot(user.email);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ error: accountMessages.resetThrottled, code: 'rate_limited' });
    // Unknown addresses are throttled the same way: the 429 tells nothing either.
    for (let i = 0; i < 3; i++) expect((await forgot('ghost@example.com')).statusCode).toBe(200);
    expect((await forgot('ghost@example.com')).statusCode).toBe(429);

    const ip = '203.0.113.77';
    for (let i = 0; i < 10; i++) expect((await forgot(`spray${i}@example.com`, ip)).statusCode).toBe(200);
    expect((await forgot('spray-last@example.com', ip)).statusCode).toBe(429);
    expect((await forgot('spray-last@example.com', '203.0.113.78')).statusCode).toBe(200);

    const tokens = await t.db.query(`SELECT 1 FROM account_tokens WHERE user_id = $1`, [user.id]);
    expect(tokens).toHaveLength(3);
  });
});

describe('change password', () => {
  it('needs the current password, ends the other sessions and keeps this one', async () => {
    const user = await registerUser(t, { password: 'first-pass' });
    const other = (await signIn(user.email, 'first-pass', FIREFOX_WIN)).json().token as string;
    const change = (body: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/account/password', headers: user.headers, payload: body });

    const wrong = await change({ currentPassword: 'nope-nope', newPassword: 'second-pass', confirmPassword: 'second-pass' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe(accountMessages.currentPasswordWrong);
    const mismatch = await change({ currentPassword: 'first-pass', newPassword: 'second-pass', confirmPassword: 'second-pazz' });
    expect(mismatch.json().error).toBe(registrationMessages.passwordsMismatch);
    expect((await me(other)).statusCode).toBe(200);

    const ok = await change({ currentPassword: 'first-pass', newPassword: 'second-pass', confirmPassword: 'second-pass' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: accountMessages.passwordChanged, ended: 1 });
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(user.token)).statusCode).toBe(200);
    expect((await signIn(user.email, 'first-pass')).statusCode).toBe(401);
    expect((await signIn(user.email, 'second-pass')).statusCode).toBe(200);
    const note = await smtp.waitFor(user.email, /password was changed/);
    expect(note.text).toContain('every other device was signed out');
  });

  it('stops guessing the current password after 10 wrong tries a minute', async () => {
    const user = await registerUser(t);
    const change = () =>
      t.app.inject({ method: 'POST', url: '/api/account/password', headers: user.headers, payload: { currentPassword: 'wrong-guess', newPassword: 'xxxxxxx' } });
    for (let i = 0; i < 10; i++) expect((await change()).statusCode).toBe(400);
    expect((await change()).statusCode).toBe(429);
  });
});

describe('sessions', () => {
  it('lists device, IP, last seen and the current one; ends one or all others', async () => {
    const user = await registerUser(t, { password: 'sessions-pass' });
    const a = await signIn(user.email, 'sessions-pass', CHROME_MAC, '192.0.2.201');
    const b = await signIn(user.email, 'sessions-pass', FIREFOX_WIN, '192.0.2.202');
    const mine = a.json().token as string;
    const theirs = b.json().token as string;

    const list = await t.app.inject({ url: '/api/account/sessions', headers: bearer(mine) });
    expect(list.statusCode).toBe(200);
    const sessions = list.json().sessions as Array<{ id: string; device: string; ip: string; current: boolean; last_seen_at: string }>;
    expect(sessions).toHaveLength(3); // sign-up + two sign-ins
    const current = sessions.find((s) => s.current)!;
    expect(current).toMatchObject({ device: 'Chrome on macOS', ip: '192.0.2.201' });
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const firefox = sessions.find((s) => s.ip === '192.0.2.202')!;
    expect(firefox.device).toBe('Firefox on Windows');
    expect(Date.now() - Date.parse(firefox.last_seen_at)).toBeLessThan(60_000);

    // Someone else cannot end it.
    const intruder = await registerUser(t);
    const foreign = await t.app.inject({ method: 'DELETE', url: `/api/account/sessions/${firefox.id}`, headers: intruder.headers });
    expect(foreign.statusCode).toBe(404);
    expect((await me(theirs)).statusCode).toBe(200);

    const end = await t.app.inject({ method: 'DELETE', url: `/api/account/sessions/${firefox.id}`, headers: bearer(mine) });
    expect(end.statusCode).toBe(200);
    expect((await me(theirs)).statusCode).toBe(401);
    expect((await me(mine)).statusCode).toBe(200);

    const rest = await t.app.inject({ method: 'POST', url: '/api/account/sessions/end-others', headers: bearer(mine) });
    expect(rest.json()).toEqual({ ended: 1, message: accountMessages.otherSessionsEnded(1) });
    expect((await me(user.token)).statusCode).toBe(401);
    const after = (await t.app.inject({ url: '/api/account/sessions', headers: bearer(mine) })).json().sessions;
    expect(after).toHaveLength(1);
    expect(after[0].current).toBe(true);
  });

  it('names common devices', () => {
    expect(describeDevice('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1')).toBe(
      'Safari on iPhone',
    );
    expect(describeDevice(null)).toBe('Unknown device');
    expect(describeDevice('curl/8.5.0')).toBe('curl/8.5.0');
  });
});

async function png(color: string) {
  return sharp({ create: { width: 24, height: 16, channels: 3, background: color } }).png().toBuffer();
}

describe('Download my data', () => {
  it('is a ZIP of profile, ledger, jobs, invites, referrals as JSON plus every library original', async () => {
    const user = await registerUser(t, { name: 'Export Me', energy: 9 });
    const friend = await registerUser(t);
    const original = await png('#225588');
    const up = await upload(t, user, { filename: 'holiday photo.png', contentType: 'image/png', body: original });
    expect(up.statusCode).toBe(201);
    const invite = await t.app.inject({ method: 'POST', url: '/api/invites', headers: user.headers, payload: {} });
    const code = invite.json().invite.invite_code as string;
    await t.db.query(`INSERT INTO user_referrals (referrer_id, referred_id, invite_code) VALUES ($1, $2, $3)`, [user.id, friend.id, code]);
    const run = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: user.headers, payload: { image_url: up.json().id } });
    expect(run.statusCode).toBeLessThan(300);

    const start = await t.app.inject({ method: 'POST', url: '/api/account/exports', headers: user.headers });
    expect(start.json()).toEqual({ mode: 'inline', url: '/api/account/export' });
    const res = await t.app.inject({ url: '/api/account/export', headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="pixelrush-data-\d{4}-\d{2}-\d{2}\.zip"$/);

    const zip = await readZip(res.rawPayload);
    const names = [...zip.keys()].sort();
    for (const n of ['profile.json', 'energy-ledger.json', 'jobs.json', 'invites.json', 'referrals.json', 'library.json']) expect(names).toContain(n);
    const json = (n: string) => JSON.parse(zip.get(n)!.toString('utf8'));
    expect(json('profile.json')).toMatchObject({ id: user.id, email: user.email, full_name: 'Export Me' });
    const ledger = json('energy-ledger.json') as Array<{ amount: number; type: string }>;
    expect(ledger.map((l) => l.type)).toEqual(expect.arrayContaining(['grant', 'spend']));
    expect(ledger.reduce((s, l) => s + l.amount, 0)).toBe(json('profile.json').energy_balance);
    expect(json('jobs.json')[0]).toMatchObject({ id: run.json().job_id, tool: 'fal-upscaler' });
    expect(json('invites.json')).toEqual([expect.objectContaining({ invite_code: code })]);
    expect(json('referrals.json')).toEqual([expect.objectContaining({ relation: 'you invited', invite_code: code })]);
    const library = json('library.json') as Array<{ id: string; original_name: string; file: string | null }>;
    const mine = library.find((i) => i.id === up.json().id)!;
    expect(mine.original_name).toBe('holiday photo.png');
    // The original's bytes as stored (uploads are cleaned of metadata, so compare with storage).
    const stored = await t.ctx.services.library.storage.get((await t.db.query<{ storage_path: string }>('SELECT storage_path FROM uploaded_images WHERE id = $1', [mine.id]))[0].storage_path);
    const chunks: Buffer[] = [];
    for await (const c of stored.stream) chunks.push(c as Buffer);
    expect(zip.get(mine.file!)!.equals(Buffer.concat(chunks))).toBe(true);
    // Nothing of the friend's.
    expect(zip.get('profile.json')!.toString()).not.toContain(friend.email);
  });

  it('is built as a job and mailed when the library is large', async () => {
    const big = await createTestApp(
      { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3999', EXPORT_INLINE_MAX_MB: '0', DATA_DIR: `./.tmp/account-big-${process.pid}` },
      { provider: createFakeAiProvider({ delayMs: 0 }) },
    );
    try {
      const user = await registerUser(big);
      expect((await upload(big, user, { filename: 'a.png', contentType: 'image/png', body: await png("#aa3344") })).statusCode).toBe(201);
      const start = await big.app.inject({ method: 'POST', url: '/api/account/exports', headers: user.headers });
      expect(start.statusCode).toBe(202);
      expect(start.json()).toMatchObject({ mode: 'job', status: 'building', message: accountMessages.exportBuilding });
      const mail = await smtp.waitFor(user.email, /data is ready/);
      const link = linkIn(mail, '/api/files/');
      const file = await big.app.inject({ url: link.pathname + link.search });
      expect(file.statusCode).toBe(200);
      const zip = await readZip(file.rawPayload);
      expect([...zip.keys()].filter((k) => k.startsWith('library/'))).toHaveLength(1);
      const list = await big.app.inject({ url: '/api/account/exports', headers: user.headers });
      expect(list.json().exports[0]).toMatchObject({ status: 'ready', url: expect.stringContaining('/api/files/') });
    } finally {
      await big.close();
    }
  });
});

describe('the dev outbox', () => {
  it('without SMTP settings mails are kept and listed with their links; the page is off in production', async () => {
    const dev = await createTestApp({ PUBLIC_URL: 'http://localhost:3999', DATA_DIR: `./.tmp/account-outbox-${process.pid}` }, { provider: createFakeAiProvider() });
    try {
      expect(dev.ctx.config.mailTransport).toBe('outbox');
      const user = await registerUser(dev);
      await dev.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email }, remoteAddress: nextIp() });
      let page = '';
      for (let i = 0; i < 100 && !page.includes('reset-password?token='); i++) {
        page = (await dev.app.inject({ url: '/dev/outbox' })).body;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(page).toContain(user.email);
      expect(page).toMatch(/<a href="http:\/\/localhost:3999\/reset-password\?token=[\w-]{43}">/);
      const [row] = await dev.db.query<{ id: string; status: string }>(`SELECT id, status FROM mail_messages WHERE user_id = $1`, [user.id]);
      expect(row.status).toBe('sent');
      const one = await dev.app.inject({ url: `/dev/outbox/${row.id}` });
      expect(one.body).toContain('Choose a new password');
      const html = await dev.app.inject({ url: `/dev/outbox/${row.id}/html` });
      expect(html.headers['content-security-policy']).toContain("default-src 'none'");
    } finally {
      await dev.close();
    }
    const prod = parseConfig({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40) });
    expect(prod).toMatchObject({ mailOutbox: false, mailTransport: 'disabled' });
    expect(parseConfig({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40), MAIL_OUTBOX: 'on' })).toMatchObject({ mailOutbox: true, mailTransport: 'outbox' });
    expect(parseConfig({ NODE_ENV: 'development' })).toMatchObject({ mailOutbox: true, mailTransport: 'outbox' });
    // A development server on a public address keeps its links to itself.
    expect(parseConfig({ NODE_ENV: 'development', PUBLIC_URL: 'https://pixelrush.example.com', TEST_CHECKOUT: 'off' })).toMatchObject({ mailOutbox: false, mailTransport: 'disabled' });
    expect(parseConfig({ NODE_ENV: 'development', SMTP_URL: 'smtp://mail.example.com:587' }).mailTransport).toBe('smtp');
    expect(() => parseConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
  });
});

describe('mail delivery is a queue job with retries', () => {
  it('a mail whose SMTP server was down goes out on a later attempt', async () => {
    const down = await startSmtpSink();
    const url = down.url;
    const port = Number(new URL(url).port);
    await down.close();
    const app = await createTestApp({ SMTP_URL: url, DATA_DIR: `./.tmp/account-retry-${process.pid}` }, { provider: createFakeAiProvider() });
    try {
      const user = await registerUser(app);
      const started = Date.now();
      const res = await app.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email }, remoteAddress: nextIp() });
      expect(res.statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(5_000);
      let row: { attempts: number; status: string; error: string | null } | undefined;
      for (let i = 0; i < 200; i++) {
        [row] = await app.db.query(`SELECT attempts, status, error FROM mail_messages WHERE user_id = $1`, [user.id]);
        if (row && row.attempts >= 2) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(row!.status).toBe('queued');
      expect(row!.attempts).toBeGreaterThanOrEqual(2);
      expect(row!.error).toMatch(/ECONNREFUSED|connect/i);
      // The server comes back: a later attempt delivers it.
      const back = await startSmtpSink(port);
      try {
        const mail = await back.waitFor(user.email, /Reset/, 30_000);
        expect(mail.text).toContain('/reset-password?token=');
        await expect
          .poll(async () => (await app.db.query<{ status: string }>(`SELECT status FROM mail_messages WHERE user_id = $1`, [user.id]))[0]!.status)
          .toBe('sent');
      } finally {
        await back.close();
      }
    } finally {
      await app.close();
    }
  });
});

describe('optional e-mail confirmation', () => {
  it('off by default; when on, unconfirmed accounts land on the dashboard but cannot buy or run tools until they click', async () => {
    expect(parseConfig({}).EMAIL_VERIFICATION).toBe(false);
    const app = await createTestApp(
      { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3999', EMAIL_VERIFICATION: 'on', DATA_DIR: `./.tmp/account-verify-${process.pid}` },
      { provider: createFakeAiProvider({ delayMs: 0 }) },
    );
    try {
      const user = await registerUser(app, { energy: 5 });
      expect((await app.app.inject({ url: '/api/me', headers: user.headers })).statusCode).toBe(200);
      expect((await app.app.inject({ url: '/api/account', headers: user.headers })).json()).toMatchObject({ email_verified: false, verification_required: true });
      const up = await upload(app, user, { filename: 'v.png', contentType: 'image/png', body: await png('#118844') });
      expect(up.statusCode).toBe(201);
      const run = () => app.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: user.headers, payload: { image_url: up.json().id } });
      const refused = await run();
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: accountMessages.verifyFirst, code: 'email_unverified' });
      const buy = await app.app.inject({
        method: 'POST',
        url: '/functions/v1/stripe-checkout',
        headers: user.headers,
        payload: { price_id: 'price_pixelrush_starter', mode: 'payment', success_url: 'http://localhost:3999/success', cancel_url: 'http://localhost:3999/dashboard' },
      });
      expect(buy.statusCode).toBe(403);
      expect((await app.db.query('SELECT 1 FROM tool_jobs WHERE user_id = $1', [user.id]))).toHaveLength(0);

      const mail = await smtp.waitFor(user.email, /Confirm your e-mail/);
      const token = linkIn(mail, '/verify-email?token=').searchParams.get('token')!;
      const ok = await app.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
      expect(ok.json()).toEqual({ message: accountMessages.emailVerified });
      expect((await run()).statusCode).toBeLessThan(300);
      const reuse = await app.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
      expect(reuse.statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});

describe('delete account', () => {
  it('needs the password and DELETE; an admin cannot delete the last admin', async () => {
    const user = await registerUser(t, { password: 'keep-me-1' });
    const del = (u: TestUser, body: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/account/delete', headers: u.headers, payload: body });
    expect((await del(user, { password: 'wrong-one', confirm: 'DELETE' })).json().error).toBe(accountMessages.passwordIncorrect);
    expect((await del(user, { password: 'keep-me-1', confirm: 'delete' })).json().error).toBe(accountMessages.typeDelete);
    expect((await me(user.token)).statusCode).toBe(200);

    await t.db.query(`UPDATE users SET role = 'user' WHERE role = 'admin'`);
    const admin = await registerUser(t, { role: 'admin', password: 'admin-pass' });
    const last = await del(admin, { password: 'admin-pass', confirm: 'DELETE' });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ error: accountMessages.lastAdmin, code: 'conflict' });
    const second = await registerUser(t, { role: 'admin', password: 'admin-pass' });
    expect((await del(admin, { password: 'admin-pass', confirm: 'DELETE' })).statusCode).toBe(200);
    expect((await del(second, { password: 'admin-pass', confirm: 'DELETE' })).statusCode).toBe(409);
  });
});

