import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgresServer, raceTest } from './helpers/test-db.js';
import { appWithUser, buyOnTestCheckout, createPeerApp, createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { bundleCatalogue, startFakeStripe } from './helpers/fake-stripe.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { createMemoryMedia } from './helpers/memory-media.js';
import { chargeObject, disputeObject, stripeEvent, type DisputeStatus } from './fixtures/stripe-events.js';
import { owedMessages } from '../src/shared/energy.messages.js';

// Decision 028: refunds and disputes take back the ENERGY a purchase granted, exactly once,
// whatever the order or number of deliveries; what was spent already is owed, not negative.
const ORIGIN = 'http://127.0.0.1:3000';
const WEBHOOK_SECRET = 'whsec_test_reversals_secret';
const signer = new Stripe('sk_test_signer');

interface Books {
  energy_balance: number;
  energy_owed: number;
  ledger_sum: number;
  owed_sum: number;
}

/** The balance and what is owed, with the ledger sums they must always equal. */
async function books(t: TestApp, userId: string): Promise<Books> {
  const [row] = await t.db.query<Books>(
    `SELECT p.energy_balance, p.energy_owed,
            COALESCE((SELECT SUM(amount) FROM energy_transactions WHERE user_id = p.id), 0)::int AS ledger_sum,
            COALESCE((SELECT SUM(owed_change) FROM energy_transactions WHERE user_id = p.id), 0)::int AS owed_sum
       FROM user_profiles p WHERE p.id = $1`,
    [userId],
  );
  expect(row!.ledger_sum).toBe(row!.energy_balance);
  expect(row!.owed_sum).toBe(row!.energy_owed);
  return row!;
}

const entriesOf = (t: TestApp, paymentId: string) =>
  t.db.query<{ type: string; amount: number; owed_change: number; description: string }>(
    'SELECT type, amount, owed_change, description FROM energy_transactions WHERE payment_id = $1 ORDER BY seq',
    [paymentId],
  );

describe('Stripe: refunds and disputes (Stripe-shaped events against the fake Stripe)', () => {
  let t: TestApp;
  let fake: Awaited<ReturnType<typeof startFakeStripe>>;
  let admin: TestUser;
  let n = 0;

  beforeAll(async () => {
    fake = await startFakeStripe({ prices: bundleCatalogue() });
    t = await createTestApp(
      { STRIPE_SECRET_KEY: 'sk_test_reversals', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url },
      { provider: createFakeAiProvider({ delayMs: 10 }), media: createMemoryMedia() },
    );
    admin = await registerUser(t, { role: 'admin' });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const deliver = (event: Record<string, unknown>) => {
    const payload = JSON.stringify(event);
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    return t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });
  };

  /** A starter purchase (50 ENERGY for $10.00), paid at the fake Stripe and credited through the webhook. */
  async function buy(who: TestUser, opts: { credit?: boolean } = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/stripe-checkout',
      headers: who.headers,
      payload: { price_id: 'price_fake_starter', mode: 'payment', success_url: `${ORIGIN}/success`, cancel_url: `${ORIGIN}/dashboard` },
    });
    expect(res.statusCode).toBe(200);
    const sessionId = res.json().session_id as string;
    const intent = `pi_rev_${++n}`;
    fake.pay(sessionId, intent);
    const complete = () => deliver(stripeEvent(`evt_done_${sessionId}`, 'checkout.session.completed', { id: sessionId, object: 'checkout.session', payment_status: 'paid' }));
    if (opts.credit !== false) expect((await complete()).statusCode).toBe(200);
    return { sessionId, intent, chargeId: `ch_fake_${sessionId}`, complete };
  }

  const refunded = (p: { intent: string; chargeId: string }, cents: number, evt = `evt_ref_${p.intent}_${cents}`) =>
    stripeEvent(evt, 'charge.refunded', chargeObject({ id: p.chargeId, paymentIntent: p.intent, amount: 1000, amountRefunded: cents }));
  const dispute = (p: { intent: string; chargeId: string }, type: string, status: DisputeStatus, id = `du_${p.intent}`, cents = 1000) =>
    stripeEvent(`evt_${type}_${id}_${status}`, type, disputeObject({ id, charge: p.chargeId, paymentIntent: p.intent, amount: cents, status }));

  it('a full refund takes back all 50 ENERGY once, with a named entry linked to the purchase; a replay changes nothing', async () => {
    const u = await registerUser(t);
    const p = await buy(u);
    expect((await books(t, u.id)).energy_balance).toBe(50);
    expect((await deliver(refunded(p, 1000))).statusCode).toBe(200);
    expect(await books(t, u.id)).toMatchObject({ energy_balance: 0, energy_owed: 0 });
    await deliver(refunded(p, 1000));
    await deliver(refunded(p, 1000, 'evt_other_id_same_state'));
    expect((await books(t, u.id)).energy_balance).toBe(0);
    expect(await entriesOf(t, p.sessionId)).toEqual([
      expect.objectContaining({ type: 'purchase', amount: 50 }),
      { type: 'reversal', amount: -50, owed_change: 0, description: 'Refunded: Starter bundle, 50 ENERGY taken back' },
    ]);
  });

  it('partial refunds take back their share (rounded down); a late older event changes nothing', async () => {
    const u = await registerUser(t);
    const p = await buy(u);
    await deliver(refunded(p, 300)); // 30% of 50 = 15
    expect((await books(t, u.id)).energy_balance).toBe(35);
    await deliver(refunded(p, 650)); // 65% = 32.5 -> 32 in all
    expect((await books(t, u.id)).energy_balance).toBe(18);
    await deliver(refunded(p, 300, 'evt_late_old_state'));
    expect((await books(t, u.id)).energy_balance).toBe(18);
    expect((await entriesOf(t, p.sessionId)).filter((e) => e.type === 'reversal').map((e) => e.amount)).toEqual([-15, -17]);
  });

  it('a dispute takes the ENERGY while the bank holds the money; lost keeps it taken, won gives it back', async () => {
    const u = await registerUser(t);
    const lost = await buy(u);
    const won = await buy(u);
    expect((await books(t, u.id)).energy_balance).toBe(100);
    await deliver(dispute(lost, 'charge.dispute.created', 'needs_response'));
    expect((await books(t, u.id)).energy_balance).toBe(50);
    await deliver(dispute(lost, 'charge.dispute.closed', 'lost'));
    expect((await books(t, u.id)).energy_balance).toBe(50);

    await deliver(dispute(won, 'charge.dispute.created', 'needs_response'));
    expect((await books(t, u.id)).energy_balance).toBe(0);
    await deliver(dispute(won, 'charge.dispute.closed', 'won'));
    expect((await books(t, u.id)).energy_balance).toBe(50);
    expect((await entriesOf(t, won.sessionId)).map((e) => [e.type, e.amount])).toEqual([
      ['purchase', 50],
      ['reversal', -50],
      ['restore', 50],
    ]);
    // A replayed 'created' after the close does not reopen it.
    await deliver(dispute(won, 'charge.dispute.created', 'needs_response'));
    expect((await books(t, u.id)).energy_balance).toBe(50);
  });

  it('an inquiry (warning_needs_response) holds no money and takes nothing', async () => {
    const u = await registerUser(t);
    const p = await buy(u);
    await deliver(dispute(p, 'charge.dispute.created', 'warning_needs_response'));
    expect((await books(t, u.id)).energy_balance).toBe(50);
  });

  it('out of order: a won close before its created takes nothing; a refund before the credit applies at the credit', async () => {
    const u = await registerUser(t);
    const p = await buy(u);
    await deliver(dispute(p, 'charge.dispute.closed', 'won'));
    await deliver(dispute(p, 'charge.dispute.created', 'needs_response'));
    expect((await books(t, u.id)).energy_balance).toBe(50);

    const early = await buy(u, { credit: false });
    await deliver(refunded(early, 1000));
    expect((await books(t, u.id)).energy_balance).toBe(50);
    expect((await early.complete()).statusCode).toBe(200);
    expect((await books(t, u.id)).energy_balance).toBe(50);
    expect((await entriesOf(t, early.sessionId)).map((e) => e.type)).toEqual(['purchase', 'reversal']);
  });

  it('a refund of ENERGY already spent: what is left is taken, the rest owed; paid runs wait; the next purchase settles it', async () => {
    const u = await registerUser(t);
    const p = await buy(u);
    await t.ctx.services.energy.spend({ userId: u.id, cost: 40, toolName: 'AI Image Upscaler', description: 'spent before the refund' });
    await deliver(refunded(p, 1000));
    expect(await books(t, u.id)).toMatchObject({ energy_balance: 0, energy_owed: 40 });
    const [reversal] = (await entriesOf(t, p.sessionId)).filter((e) => e.type === 'reversal');
    expect(reversal).toMatchObject({ amount: -10, owed_change: 40 });
    expect(reversal!.description).toContain('40 already spent: owed');

    const me = (await t.app.inject({ url: '/api/me', headers: u.headers })).json();
    expect(me).toMatchObject({ energy_balance: 0, energy_owed: 40 });
    const [{ jobs: jobsBefore }] = await t.db.query<{ jobs: number }>('SELECT count(*)::int AS jobs FROM tool_jobs WHERE user_id = $1', [u.id]);
    const blocked = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: { ...u.headers, prefer: 'respond-async' }, payload: { image_url: 'https://x.test/a.png' } });
    expect(blocked.statusCode).toBe(402);
    expect(blocked.json().error).toBe(owedMessages.blocked(40));
    const [{ jobs: jobsAfter }] = await t.db.query<{ jobs: number }>('SELECT count(*)::int AS jobs FROM tool_jobs WHERE user_id = $1', [u.id]);
    expect(jobsAfter).toBe(jobsBefore);
    // The admin sees it too.
    const listed = (await t.app.inject({ url: `/api/admin/users?query=${encodeURIComponent(u.email)}`, headers: admin.headers })).json();
    expect(listed.items[0]).toMatchObject({ energy_owed: 40, energy_balance: 0 });

    await buy(u);
    expect(await books(t, u.id)).toMatchObject({ energy_balance: 10, energy_owed: 0 });
    const settlement = await t.db.query<{ amount: number; owed_change: number }>("SELECT amount, owed_change FROM energy_transactions WHERE user_id = $1 AND type = 'settlement'", [u.id]);
    expect(settlement).toEqual([{ amount: -40, owed_change: -40 }]);
    const run = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: { ...u.headers, prefer: 'respond-async' }, payload: { image_url: 'https://x.test/a.png' } });
    expect(run.statusCode).toBe(202);
  });

  it('a won dispute after the ENERGY was spent forgives what is owed first', async () => {
    const u = await registerUser(t);
    const p = await buy(u);
    await t.ctx.services.energy.spend({ userId: u.id, cost: 30, toolName: 'AI Image Upscaler', description: 'spent' });
    await deliver(dispute(p, 'charge.dispute.created', 'needs_response'));
    expect(await books(t, u.id)).toMatchObject({ energy_balance: 0, energy_owed: 30 });
    await deliver(dispute(p, 'charge.dispute.closed', 'won'));
    expect(await books(t, u.id)).toMatchObject({ energy_balance: 20, energy_owed: 0 });
  });

  it(raceTest('the same refund delivered 6 times at once, with another id too, takes back once'), async () => {
    const u = await registerUser(t);
    const p = await buy(u);
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => deliver(refunded(p, 1000))),
      deliver(refunded(p, 1000, 'evt_dup_a')),
      deliver(refunded(p, 1000, 'evt_dup_b')),
    ]);
    for (const r of results) expect(r.statusCode).toBe(200);
    expect((await books(t, u.id)).energy_balance).toBe(0);
    expect((await entriesOf(t, p.sessionId)).filter((e) => e.type === 'reversal')).toHaveLength(1);
  });

  // Two server processes share only the database: each delivery below goes through its own pool and services.
  it.skipIf(!onPostgresServer())('two processes: the same refund and dispute, each delivered through both at once, take back once', async () => {
    const peer = await createPeerApp(t, { STRIPE_SECRET_KEY: 'sk_test_reversals', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url });
    try {
      const sign = (event: Record<string, unknown>) => {
        const payload = JSON.stringify(event);
        return { payload, signature: signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) };
      };
      const through = (app: TestApp, event: Record<string, unknown>) => {
        const { payload, signature } = sign(event);
        return app.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });
      };
      const u = await registerUser(t);
      const p = await buy(u);
      const q = await buy(u);
      const events = [refunded(p, 1000), refunded(p, 1000, 'evt_two_proc_other'), dispute(q, 'charge.dispute.created', 'needs_response')];
      const results = await Promise.all(events.flatMap((e) => [through(t, e), through(peer, e), through(peer, e), through(t, e)]));
      for (const r of results) expect(r.statusCode).toBe(200);
      expect(await books(t, u.id)).toMatchObject({ energy_balance: 0, energy_owed: 0 });
      expect((await entriesOf(t, p.sessionId)).filter((e) => e.type === 'reversal').map((e) => e.amount)).toEqual([-50]);
      expect((await entriesOf(t, q.sessionId)).filter((e) => e.type === 'reversal').map((e) => e.amount)).toEqual([-50]);
      // The won close, through both at once, gives back once.
      const won = dispute(q, 'charge.dispute.closed', 'won');
      await Promise.all([through(t, won), through(peer, won), through(peer, won)]);
      expect((await entriesOf(t, q.sessionId)).filter((e) => e.type === 'restore').map((e) => e.amount)).toEqual([50]);
      expect((await books(t, u.id)).energy_balance).toBe(50);
    } finally {
      await peer.close();
    }
  });

  it('an admin refund is made at Stripe, the ENERGY follows, it is audited, and the webhook that follows changes nothing', async () => {
    const u = await registerUser(t);
    const p = await buy(u);
    const res = await t.app.inject({ method: 'POST', url: `/api/admin/purchases/${p.sessionId}/refund`, headers: admin.headers, payload: { amount_cents: 500, reason: 'asked by mail' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ purchase_id: p.sessionId, refunded_cents: 500 });
    const call = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds').at(-1)!;
    expect(call.body.get('payment_intent')).toBe(p.intent);
    expect(call.body.get('amount')).toBe('500');
    expect((await books(t, u.id)).energy_balance).toBe(25);
    await deliver(stripeEvent('evt_after_admin_refund', 'charge.refunded', fake.charges.get(p.intent)!));
    expect((await books(t, u.id)).energy_balance).toBe(25);
    const [audit] = await t.db.query<{ action: string; target: string; new_value: { refunded_cents: number; reason: string } }>(
      "SELECT action, target, new_value FROM admin_audit WHERE action = 'refund_purchase' AND target = $1",
      [p.sessionId],
    );
    expect(audit).toMatchObject({ new_value: { refunded_cents: 500, reason: 'asked by mail' } });
    // More than is left is refused; a non-admin cannot refund.
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/purchases/${p.sessionId}/refund`, headers: admin.headers, payload: { amount_cents: 501 } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/purchases/${p.sessionId}/refund`, headers: u.headers, payload: {} })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/purchases/${p.sessionId}/refund`, headers: admin.headers, payload: {} })).statusCode).toBe(200);
    expect((await books(t, u.id)).energy_balance).toBe(0);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/purchases/${p.sessionId}/refund`, headers: admin.headers, payload: {} })).statusCode).toBe(409);
  });
});

describe('built-in test checkout: the admin refund runs the same webhook path', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => ({ t, user: admin } = await appWithUser({ role: 'admin' })));
  afterAll(() => t.close());

  it('a partial then a full refund take back 25 then 25; the event went through the signed webhook', async () => {
    const u = await registerUser(t);
    const id = await buyOnTestCheckout(t, u);
    expect((await books(t, u.id)).energy_balance).toBe(50);
    const part = await t.app.inject({ method: 'POST', url: `/api/admin/purchases/${id}/refund`, headers: admin.headers, payload: { amount_cents: 500 } });
    expect(part.statusCode).toBe(200);
    expect((await books(t, u.id)).energy_balance).toBe(25);
    const rest = await t.app.inject({ method: 'POST', url: `/api/admin/purchases/${id}/refund`, headers: admin.headers, payload: {} });
    expect(rest.json()).toMatchObject({ refunded_cents: 500 });
    expect((await books(t, u.id)).energy_balance).toBe(0);
    const events = await t.db.query<{ type: string }>("SELECT type FROM payment_events WHERE type = 'charge.refunded'");
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect((await entriesOf(t, id)).map((e) => [e.type, e.amount])).toEqual([
      ['purchase', 50],
      ['reversal', -25],
      ['reversal', -25],
    ]);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/purchases/${id}/refund`, headers: admin.headers, payload: {} })).statusCode).toBe(409);
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/purchases/cs_nope/refund', headers: admin.headers, payload: {} })).statusCode).toBe(404);
  });
});
