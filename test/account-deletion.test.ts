import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useS3rver } from './helpers/s3rver.js';
import sharp from 'sharp';
import { accountMessages } from '../src/shared/account.messages.js';
import { createTestApp, registerUser, type TestApp } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { upload } from './library.fixtures.js';

const s3 = useS3rver('pr-account-delete-', 'pixelrush-delete');
const tmpRoot = s3.root;

const drivers: Array<[string, () => Record<string, string>]> = [
  ['local disk', () => ({ DATA_DIR: path.join(tmpRoot, 'local') })],
  [
    'S3',
    () => ({
      DATA_DIR: path.join(tmpRoot, 's3-app'),
      S3_BUCKET: 'pixelrush-delete',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    }),
  ],
];

/** balance == SUM(ledger) for every profile, and the platform totals agree. */
async function ledgerBalances(t: TestApp) {
  const mismatched = await t.db.query(
    `SELECT p.id FROM user_profiles p
       LEFT JOIN (SELECT user_id, SUM(amount) AS s FROM energy_transactions GROUP BY user_id) l ON l.user_id = p.id
      WHERE p.energy_balance <> COALESCE(l.s, 0)`,
  );
  const [totals] = await t.db.query<{ balances: number; ledger: number }>(
    `SELECT (SELECT COALESCE(SUM(energy_balance), 0) FROM user_profiles)::int AS balances,
            (SELECT COALESCE(SUM(amount), 0) FROM energy_transactions)::int AS ledger`,
  );
  return { mismatched, totals };
}

describe.each(drivers)('delete account (%s)', (_name, env) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(env(), { provider: createFakeAiProvider({ delayMs: 0 }) });
  });
  afterAll(() => t?.close());

  it('removes sessions, files and personal data; ledger rows stay, pseudonymized, and every sum still adds up', async () => {
    const storage = t.ctx.services.library.storage;
    expect(storage.kind).toBe(env().S3_BUCKET ? 's3' : 'local');
    const stays = await registerUser(t, { energy: 7 });
    const leaves = await registerUser(t, { name: 'Leaving Person', password: 'leave-now', energy: 12 });
    const second = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email: leaves.email, password: 'leave-now' }, remoteAddress: '192.0.2.90' });
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#884422' } }).png().toBuffer();
    const up = await upload(t, leaves, { filename: 'me.png', contentType: 'image/png', body: png });
    expect(up.statusCode).toBe(201);
    const kept = await upload(t, stays, { filename: 'other.png', contentType: 'image/png', body: png });
    const run = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: { ...leaves.headers, prefer: 'wait' }, payload: { image_url: up.json().id } });
    expect(run.statusCode).toBeLessThan(300);
    await t.app.inject({ method: 'POST', url: '/api/invites', headers: leaves.headers, payload: {} });
    // Wait for the run to finish so its generated file exists too.
    for (let i = 0; i < 200; i++) {
      const [job] = await t.db.query<{ status: string }>('SELECT status FROM tool_jobs WHERE user_id = $1', [leaves.id]);
      if (job && job.status !== 'queued' && job.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const files = await t.db.query<{ storage_path: string; thumbnail_path: string | null }>(
      'SELECT storage_path, thumbnail_path FROM uploaded_images WHERE user_id = $1',
      [leaves.id],
    );
    const keys = files.flatMap((f) => [f.storage_path, f.thumbnail_path]).filter((k): k is string => !!k);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const k of keys) expect(await storage.head(k)).not.toBeNull();
    const ledgerBefore = await t.db.query<{ id: string }>('SELECT id FROM energy_transactions WHERE user_id = $1 ORDER BY seq', [leaves.id]);
    expect(ledgerBefore.length).toBeGreaterThanOrEqual(2);
    const before = await ledgerBalances(t);

    const res = await t.app.inject({ method: 'POST', url: '/api/account/delete', headers: leaves.headers, payload: { password: 'leave-now', confirm: 'DELETE' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: accountMessages.accountDeleted });

    // Files gone from the storage driver; the other person's file is untouched.
    for (const k of keys) expect(await storage.head(k)).toBeNull();
    const otherKey = (await t.db.query<{ storage_path: string }>('SELECT storage_path FROM uploaded_images WHERE id = $1', [kept.json().id]))[0].storage_path;
    expect(await storage.head(otherKey)).not.toBeNull();

    // Sessions and sign-in.
    expect((await t.app.inject({ url: '/api/me', headers: leaves.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${second.json().token}` } })).statusCode).toBe(401);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email: leaves.email, password: 'leave-now' }, remoteAddress: '192.0.2.91' });
    expect(signIn.statusCode).toBe(401);

    // Personal rows gone; the account row is a tombstone without name, e-mail or password.
    for (const table of ['sessions', 'uploaded_images', 'tool_jobs', 'account_tokens']) {
      expect(await t.db.query(`SELECT 1 FROM ${table} WHERE user_id = $1`, [leaves.id])).toHaveLength(0);
    }
    expect(await t.db.query('SELECT 1 FROM referral_invites WHERE inviter_id = $1', [leaves.id])).toHaveLength(0);
    const [tomb] = await t.db.query<{ email: string; full_name: string; password_hash: string; deleted_at: Date | null }>(
      'SELECT email, full_name, password_hash, deleted_at FROM users WHERE id = $1',
      [leaves.id],
    );
    expect(tomb.email).not.toContain(leaves.email.split('@')[0]);
    expect(tomb.full_name).toBe('Deleted account');
    expect(tomb.password_hash).toBe('!');
    expect(tomb.deleted_at).not.toBeNull();
    const anywhere = JSON.stringify(await t.db.query('SELECT * FROM users')) + JSON.stringify(await t.db.query('SELECT * FROM mail_messages'));
    expect(anywhere).not.toContain(leaves.email);
    expect(anywhere).not.toContain('Leaving Person');

    // The ledger keeps every row, and balances still equal ledger sums everywhere.
    const ledgerAfter = await t.db.query<{ id: string }>('SELECT id FROM energy_transactions WHERE user_id = $1 ORDER BY seq', [leaves.id]);
    expect(ledgerAfter).toEqual(ledgerBefore);
    const after = await ledgerBalances(t);
    expect(after.mismatched).toEqual([]);
    expect(after.totals).toEqual(before.totals);
    expect(after.totals.balances).toBe(after.totals.ledger);

    // The address is free again.
    const again = await registerUser(t, { email: leaves.email });
    expect(again.id).not.toBe(leaves.id);
  });
});
