import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessMessages } from '../src/shared/access.messages.js';
import type { AuthenticatedUser } from '../src/server/features/auth/auth.service.js';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { holdLocks, onPostgresServer } from './helpers/test-db.js';

/**
 * Admin changes are checked inside the transaction that makes them (issue
 * 22: two admins demoting each other at the same moment left no admin, the
 * actor's role having been read when the request began). Each pair of
 * admins is authenticated first, as the routes do, then both demotions are
 * held behind a transaction that locks both accounts and released together:
 * on the Postgres server they really wait on each other; on the embedded
 * database they run one after the other with the roles read at the start,
 * which is exactly the stale read the old code trusted.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const actor = async (u: TestUser): Promise<AuthenticatedUser> => (await t.ctx.services.auth.authenticate(u.token))!;
const admins = async (ids: string[]) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE role = 'admin' AND id = ANY($1::uuid[])`, [ids]))[0]!.n;

describe('admin changes under concurrency', () => {
  it.each([1, 2, 3, 4, 5])('round %i: two admins demoting each other at once leave exactly one admin', async () => {
    const a = await registerUser(t, { role: 'admin' });
    const b = await registerUser(t, { role: 'admin' });
    const [actorA, actorB] = [await actor(a), await actor(b)];
    expect(actorA.role).toBe('admin');
    expect(actorB.role).toBe('admin');

    // A transaction holds both accounts; both demotions start and wait behind it.
    const lock = await holdLocks(t.db, 'SELECT 1 FROM users WHERE id = ANY($1::uuid[]) FOR UPDATE', [[a.id, b.id]]);
    let demotions!: Promise<PromiseSettledResult<unknown>[]>;
    try {
      demotions = Promise.allSettled([t.ctx.services.admin.setRole(actorA, b.id, 'user'), t.ctx.services.admin.setRole(actorB, a.id, 'user')]);
      // Both really are waiting on the accounts' locks.
      if (onPostgresServer()) await expect.poll(lock.waiting, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    } finally {
      await lock.release();
    }
    const outcomes = await demotions;

    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'forbidden', message: accessMessages.forbidden });
    expect(await admins([a.id, b.id])).toBe(1);
  });

  it('a demoted admin cannot grant ENERGY or change roles with what it was at the start of its request', async () => {
    const a = await registerUser(t, { role: 'admin' });
    const b = await registerUser(t, { role: 'admin' });
    const someone = await registerUser(t);
    const stale = await actor(b);
    await t.ctx.services.admin.setRole(await actor(a), b.id, 'user');
    await expect(t.ctx.services.admin.grantEnergy(stale, someone.id, 50)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(t.ctx.services.admin.setRole(stale, someone.id, 'admin')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(t.ctx.services.admin.updatePricing(stale, { pricing_updates: { 'fal-upscaler': 1 } })).rejects.toMatchObject({ code: 'forbidden' });
    const [row] = await t.db.query<{ role: string; energy_balance: number | null }>(
      'SELECT u.role, p.energy_balance FROM users u LEFT JOIN user_profiles p ON p.id = u.id WHERE u.id = $1',
      [someone.id],
    );
    expect(row!.role).toBe('user');
    expect(row!.energy_balance ?? 0).toBe(0);
  });
});
