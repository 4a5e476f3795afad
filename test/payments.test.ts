import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raceTest } from './helpers/test-db.js';
import { appWithUser, createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { bundleCatalogue, price, startFakeStripe } from './helpers/fake-stripe.js';
import { createStripeClient, STRIPE_API_VERSION, StripeGateway } from '../src/server/providers/payments/stripe-gateway.js';
import { resolveBundlePrices } from '../src/server/features/payments/stripe-prices.js';
import { parseConfig } from '../src/server/config.js';

const ORIGIN = 'http://127.0.0.1:3000';
const WEBHOOK_SECRET = 'whsec_test_contract_secret';
const signer = new Stripe('sk_test_signer');

const balanceOf = async (t: TestApp, userId: string) =>
  (await t.db.query<{ energy_balance: number; total_energy_purchased: number }>(
    'SELECT energy_balance, total_energy_purchased FROM user_profiles WHERE id = $1',
    [userId],
  ))[0];

const checkoutBody = (price_id: string, extra: Record<string, unknown> = {}) => ({
  price_id,
  mode: 'payment',
  success_url: `${ORIGIN}/success`,
  cancel_url: `${ORIGIN}/dashboard`,
  ...extra,
});

describe('built-in test checkout (no Stripe keys)', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => ({ t, user } = await appWithUser()));
  afterAll(() => t.close());

  const checkout = (body: Record<string, unknown>, who: TestUser = user) =>
    t.app.inject({ method: 'POST', url: '/functions/v1/stripe-checkout', headers: who.headers, payload: body });

  it('P3: unknown or inactive price ids and foreign redirect URLs are refused with 400', async () => {
    expect((await checkout(checkoutBody('price_nope'))).statusCode).toBe(400);
    await t.db.query("UPDATE plan_energy_mapping SET is_active = false WHERE price_id = 'price_pixelrush_power'");
    const inactive = await checkout(checkoutBody('price_pixelrush_power'));
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().error).toBe('This bundle is not available');
    await t.db.query("UPDATE plan_energy_mapping SET is_active = true WHERE price_id = 'price_pixelrush_power'");
    for (const bad of [
      { success_url: 'https://evil.example/success' },
      { cancel_url: 'https://evil.example/dashboard' },
      { success_url: `${ORIGIN}.evil.example/success` },
      { success_url: 'javascript:alert(1)' },
      { success_url: `${ORIGIN}/somewhere-else` },
      { success_url: `http://user:pw@127.0.0.1:3000/success` },
    ]) {
      const res = await checkout(checkoutBody('price_pixelrush_starter', bad));
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error).toBe('Redirect URLs must point to this site');
    }
    expect((await checkout(checkoutBody('price_pixelrush_starter', { mode: 'subscription' }))).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/functions/v1/stripe-checkout', payload: checkoutBody('price_pixelrush_starter') })).statusCode).toBe(401);
    expect(await t.db.query('SELECT 1 FROM checkout_sessions')).toHaveLength(0);
  });

  it('paying on the test checkout page credits the bundle once and the success page reports it', async () => {
    const res = await checkout(checkoutBody('price_pixelrush_starter'));
    expect(res.statusCode).toBe(200);
    const { url, session_id } = res.json();
    expect(url).toBe(`${ORIGIN}/checkout/test/${session_id}`);

    const page = await t.app.inject({ url: new URL(url).pathname, headers: user.headers });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Starter');
    expect(page.body).toContain('$10.00');
    expect(page.body).toContain('Card number');
    // Its form posts must carry a real Origin (no-referrer would make it 'null', refused as cross-site).
    expect(page.headers['referrer-policy']).toBe('same-origin');

    // Another user cannot see or pay it.
    const other = await registerUser(t);
    expect((await t.app.inject({ url: new URL(url).pathname, headers: other.headers })).statusCode).toBe(404);

    const declined = await t.app.inject({
      method: 'POST',
      url: `/checkout/test/${session_id}/pay`,
      headers: { ...user.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'card_number=4000+0000+0000+0002&expiry=12%2F34&cvc=123',
    });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    expect((await balanceOf(t, user.id)).energy_balance).toBe(0);

    const paid = await t.app.inject({
      method: 'POST',
      url: `/checkout/test/${session_id}/pay`,
      headers: { ...user.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'card_number=4242+4242+4242+4242&expiry=12%2F34&cvc=123&name=Ann',
    });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${ORIGIN}/success?session_id=${session_id}`);
    expect(await balanceOf(t, user.id)).toEqual({ energy_balance: 50, total_energy_purchased: 50 });

    // The success page (racing or late) never credits twice.
    const statuses = await Promise.all(
      Array.from({ length: 5 }, () => t.app.inject({ url: `/api/checkout/sessions/${session_id}`, headers: user.headers })),
    );
    for (const s of statuses) expect(s.json()).toMatchObject({ status: 'fulfilled', energy_added: 50, plan_name: 'Starter' });
    expect((await balanceOf(t, user.id)).energy_balance).toBe(50);

    const tx = (await t.app.inject({ url: '/api/transactions', headers: user.headers })).json().items[0];
    expect(tx).toMatchObject({ type: 'purchase', amount: 50, amount_paid_cents: 1000 });
    expect(tx.stripe_payment_intent_id).toMatch(/^pi_test_local_/);
  });

  it('the energy granted is what the admin set in plan_energy_mapping (energy + bonus)', async () => {
    await t.db.query("UPDATE plan_energy_mapping SET energy_amount = 7, bonus_energy = 3 WHERE price_id = 'price_pixelrush_trial'");
    const buyer = await registerUser(t);
    const { session_id } = (await checkout(checkoutBody('price_pixelrush_trial'), buyer)).json();
    await t.app.inject({
      method: 'POST',
      url: `/checkout/test/${session_id}/pay`,
      headers: { ...buyer.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'card_number=4242424242424242&expiry=01/40&cvc=999',
    });
    expect((await balanceOf(t, buyer.id)).energy_balance).toBe(10);
  });

  it('cancelling returns to the dashboard and changes nothing', async () => {
    const buyer = await registerUser(t);
    const { session_id } = (await checkout(checkoutBody('price_pixelrush_pro'), buyer)).json();
    const res = await t.app.inject({ method: 'POST', url: `/checkout/test/${session_id}/cancel`, headers: buyer.headers });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${ORIGIN}/dashboard`);
    expect((await balanceOf(t, buyer.id)).energy_balance).toBe(0);
    const status = await t.app.inject({ url: `/api/checkout/sessions/${session_id}`, headers: buyer.headers });
    expect(status.json().status).toBe('canceled');
    // A cancelled checkout cannot be paid afterwards.
    await t.app.inject({
      method: 'POST',
      url: `/checkout/test/${session_id}/pay`,
      headers: { ...buyer.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'card_number=4242424242424242&expiry=01/40&cvc=999',
    });
    expect((await balanceOf(t, buyer.id)).energy_balance).toBe(0);
  });

  it('P1: a webhook signed with a wrong secret is refused with 400', async () => {
    const payload = JSON.stringify({ id: 'evt_x', type: 'checkout.session.completed', data: { object: { id: 'cs_x' } } });
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' });
    const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });
    expect(res.statusCode).toBe(400);
  });
});

describe('Stripe contract (SDK against a local fake Stripe API)', () => {
  let t: TestApp;
  let fake: Awaited<ReturnType<typeof startFakeStripe>>;
  let user: TestUser;

  beforeAll(async () => {
    fake = await startFakeStripe({ prices: [...bundleCatalogue(), price('price_1StarterLive', 1000)] });
    t = await createTestApp({
      STRIPE_SECRET_KEY: 'sk_test_contract',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
      STRIPE_PRICE_STARTER: 'price_1StarterLive',
    });
    user = await registerUser(t);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const deliver = (event: Record<string, unknown>, opts: { secret?: string; timestamp?: number; tamper?: boolean } = {}) => {
    const payload = JSON.stringify(event);
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? WEBHOOK_SECRET, timestamp: opts.timestamp });
    return t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload: opts.tamper ? payload.replace('"livemode":false', '"livemode":true') : payload,
    });
  };
  const completed = (sessionId: string, n = 1, type = 'checkout.session.completed') => ({
    id: `evt_${type}_${sessionId}_${n}`,
    object: 'event',
    livemode: false,
    type,
    data: { object: { id: sessionId, object: 'checkout.session', payment_status: 'paid' } },
  });

  async function newCheckout(who: TestUser = user) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/stripe-checkout',
      headers: who.headers,
      payload: checkoutBody('price_1StarterLive'),
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { url: string; session_id: string };
  }

  it('sells each bundle under its Stripe price: STRIPE_PRICE_* by id, the others by lookup key', async () => {
    const bundles = (await t.app.inject({ url: '/api/bundles' })).json() as { id: string; price_id: string; price_cents: number }[];
    expect(bundles.map((b) => [b.id, b.price_id, b.price_cents])).toEqual([
      ['trial', 'price_fake_trial', 100],
      ['starter', 'price_1StarterLive', 1000],
      ['pro', 'price_fake_pro', 2000],
      ['power', 'price_fake_power', 5000],
    ]);
    // Our own ids are not Stripe's: checkout refuses them with a Stripe key.
    const ours = await t.app.inject({ method: 'POST', url: '/functions/v1/stripe-checkout', headers: user.headers, payload: checkoutBody('price_pixelrush_pro') });
    expect(ours.statusCode).toBe(400);
    const lookup = fake.requests.find((r) => r.path.startsWith('/v1/prices?'))!;
    expect(lookup.path).toContain('pixelrush_trial');
    expect(lookup.path).not.toContain('pixelrush_starter');
    expect(fake.requests.find((r) => r.path === '/v1/prices/price_1StarterLive')).toBeTruthy();
  });

  it('every request carries the pinned API version', () => {
    expect(fake.requests.length).toBeGreaterThan(0);
    for (const r of fake.requests) expect(r.version).toBe(STRIPE_API_VERSION);
  });

  it('a price that disappears from Stripe after start: the fake answers resource_missing, the buyer gets the spec message', async () => {
    const [pro] = bundleCatalogue().filter((p) => p.id === 'price_fake_pro');
    fake.prices.delete('price_fake_pro');
    try {
      const res = await t.app.inject({ method: 'POST', url: '/functions/v1/stripe-checkout', headers: user.headers, payload: checkoutBody('price_fake_pro') });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe('Failed to create checkout session');
      const refused = fake.requests.filter((r) => r.method === 'POST').at(-1)!;
      expect(refused.body.get('line_items[0][price]')).toBe('price_fake_pro');
    } finally {
      fake.prices.set(pro!.id, pro!);
    }
  });

  it('creates a real Checkout Session with client_reference_id, metadata and our redirect URLs', async () => {
    const { url, session_id } = await newCheckout();
    expect(url).toBe(`https://checkout.stripe.test/c/pay/${session_id}`);
    expect(fake.sessions.get(session_id)).toMatchObject({ amount_total: 1000, currency: 'usd' });
    const req = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').at(-1)!;
    expect(req.auth).toBe('Bearer sk_test_contract');
    expect(req.body.get('mode')).toBe('payment');
    expect(req.body.get('line_items[0][price]')).toBe('price_1StarterLive');
    expect(req.body.get('client_reference_id')).toBe(user.id);
    expect(req.body.get('metadata[userId]')).toBe(user.id);
    expect(req.body.get('success_url')).toBe(`${ORIGIN}/success?session_id={CHECKOUT_SESSION_ID}`);
    expect(req.body.get('cancel_url')).toBe(`${ORIGIN}/dashboard`);
  });

  it('P1: altered body, wrong secret or stale timestamp -> 400 and nothing credited', async () => {
    const { session_id } = await newCheckout();
    fake.pay(session_id);
    const before = await balanceOf(t, user.id);
    expect((await deliver(completed(session_id), { tamper: true })).statusCode).toBe(400);
    expect((await deliver(completed(session_id), { secret: 'whsec_other' })).statusCode).toBe(400);
    expect((await deliver(completed(session_id), { timestamp: Math.floor(Date.now() / 1000) - 301 })).statusCode).toBe(400);
    const unsigned = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(completed(session_id)) });
    expect(unsigned.statusCode).toBe(400);
    expect(await balanceOf(t, user.id)).toEqual(before);
  });

  it(raceTest('P2: the same completed event 5 times concurrently, out of order, racing the success page -> one credit'), async () => {
    const buyer = await registerUser(t);
    const { session_id } = await newCheckout(buyer);
    // A payment id of this attempt only, so a retry is a real second try.
    const paymentIntent = `pi_race_${randomUUID().slice(0, 8)}`;
    fake.pay(session_id, paymentIntent);
    const results = await Promise.all([
      deliver(completed(session_id, 3)),
      t.app.inject({ url: `/api/checkout/sessions/${session_id}`, headers: buyer.headers }),
      deliver(completed(session_id, 1)),
      deliver(completed(session_id, 1, 'checkout.session.async_payment_succeeded')),
      deliver(completed(session_id, 2)),
      t.app.inject({ url: `/api/checkout/sessions/${session_id}`, headers: buyer.headers }),
      deliver(completed(session_id, 1)),
    ]);
    for (const r of results) expect(r.statusCode).toBe(200);
    expect(await balanceOf(t, buyer.id)).toEqual({ energy_balance: 50, total_energy_purchased: 50 });
    const purchases = await t.db.query<{ stripe_payment_intent_id: string }>(
      "SELECT stripe_payment_intent_id FROM energy_transactions WHERE user_id = $1 AND type = 'purchase'",
      [buyer.id],
    );
    expect(purchases).toEqual([{ stripe_payment_intent_id: paymentIntent }]);
    const [paid] = await t.db.query<{ amount_paid_cents: number }>(
      "SELECT amount_paid_cents FROM energy_transactions WHERE user_id = $1 AND type = 'purchase'",
      [buyer.id],
    );
    // What Stripe charged, as its session reports it (from the price, not a constant).
    expect(paid!.amount_paid_cents).toBe(1000);
  });

  it('P2: an unpaid completed session credits nothing until async_payment_succeeded', async () => {
    const buyer = await registerUser(t);
    const { session_id } = await newCheckout(buyer);
    const unpaid = await deliver({ ...completed(session_id, 10), data: { object: { id: session_id, payment_status: 'unpaid' } } });
    expect(unpaid.statusCode).toBe(200);
    expect((await balanceOf(t, buyer.id)).energy_balance).toBe(0);
    const pending = await t.app.inject({ url: `/api/checkout/sessions/${session_id}`, headers: buyer.headers });
    expect(pending.json()).toMatchObject({ status: 'pending', energy_added: 0 });

    fake.pay(session_id);
    await deliver(completed(session_id, 11, 'checkout.session.async_payment_succeeded'));
    expect((await balanceOf(t, buyer.id)).energy_balance).toBe(50);
  });

  it('async_payment_failed is recorded; unknown event types answer 2xx', async () => {
    const buyer = await registerUser(t);
    const { session_id } = await newCheckout(buyer);
    expect((await deliver(completed(session_id, 20, 'checkout.session.async_payment_failed'))).statusCode).toBe(200);
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM checkout_sessions WHERE id = $1', [session_id]);
    expect(row.status).toBe('failed');
    expect((await deliver({ id: 'evt_other', type: 'invoice.created', data: { object: { id: 'in_1' } } })).statusCode).toBe(200);
    expect((await balanceOf(t, buyer.id)).energy_balance).toBe(0);
  });

  it('subscription events keep the subscriptions view current; active only when active', async () => {
    const sub = (status: string, type = 'customer.subscription.updated') => ({
      id: `evt_sub_${status}_${type}`,
      type,
      data: {
        object: {
          id: 'sub_1',
          status,
          metadata: { userId: user.id },
          // The pinned API version: period ends live on the items only.
          items: { data: [{ price: { id: 'price_1StarterLive' }, current_period_start: 1_900_000_000, current_period_end: 1_902_592_000 }] },
        },
      },
    });
    await deliver(sub('active', 'customer.subscription.created'));
    let res = (await t.app.inject({ url: '/api/subscription', headers: user.headers })).json();
    expect(res.subscription).toEqual({ price_id: 'price_1StarterLive', subscription_status: 'active', plan_name: 'Starter', is_active: true });
    const [stored] = await t.db.query<{ current_period_end: Date | null }>('SELECT current_period_end FROM subscriptions WHERE stripe_subscription_id = $1', ['sub_1']);
    expect(new Date(stored!.current_period_end!).toISOString()).toBe(new Date(1_902_592_000 * 1000).toISOString());
    await deliver(sub('past_due'));
    res = (await t.app.inject({ url: '/api/subscription', headers: user.headers })).json();
    expect(res.subscription.is_active).toBe(false);
    const other = await registerUser(t);
    expect((await t.app.inject({ url: '/api/subscription', headers: other.headers })).json()).toEqual({ subscription: null });
  });

  it('a user cannot read another user\'s checkout session', async () => {
    const { session_id } = await newCheckout();
    const other = await registerUser(t);
    expect((await t.app.inject({ url: `/api/checkout/sessions/${session_id}`, headers: other.headers })).statusCode).toBe(404);
  });
});

/** A test that starts its own app boots an embedded database, as a beforeAll does: the same room as a hook. */
const APP_START_ROOM = 60_000;

describe('purchases disabled (production without Stripe or test checkout)', () => {
  it('says purchases are unavailable', async () => {
    const t = await createTestApp({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40) });
    try {
      const user = await registerUser(t);
      expect((await t.app.inject({ url: '/api/payments/config' })).json()).toEqual({ mode: 'disabled' });
      const res = await t.app.inject({ method: 'POST', url: '/functions/v1/stripe-checkout', headers: user.headers, payload: checkoutBody('price_pixelrush_starter') });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe('Purchases are currently unavailable');
      expect((await t.app.inject({ url: '/checkout/test/cs_x', headers: user.headers })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  }, APP_START_ROOM);
});

describe('Stripe prices are checked at start', () => {
  const keys = { STRIPE_SECRET_KEY: 'sk_test_start', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET };
  /** The start-up check against a fake Stripe holding these prices: null when it passes, else its message. */
  const check = async (prices: ReturnType<typeof bundleCatalogue>, env: Record<string, string> = {}) => {
    const fake = await startFakeStripe({ prices });
    try {
      const config = parseConfig({ NODE_ENV: 'test', ...keys, STRIPE_API_BASE: fake.url, ...env });
      const gateway = new StripeGateway(createStripeClient(config.STRIPE_SECRET_KEY!, config.STRIPE_API_BASE), WEBHOOK_SECRET);
      await resolveBundlePrices(config, gateway.prices);
      return null;
    } catch (err) {
      return (err as Error).message;
    } finally {
      await fake.close();
    }
  };
  const catalogue = (change: (p: ReturnType<typeof bundleCatalogue>[number]) => void) =>
    bundleCatalogue().map((p) => {
      const copy = { ...p };
      if (p.id === 'price_fake_pro') change(copy);
      return copy;
    });

  it('the app does not start when a price differs from the bundle shown', async () => {
    const fake = await startFakeStripe({ prices: catalogue((p) => (p.unit_amount = 2500)) });
    try {
      await expect(createTestApp({ ...keys, STRIPE_API_BASE: fake.url })).rejects.toThrow(
        "Pro bundle: Stripe price with lookup key 'pixelrush_pro' charges 25.00 USD, but the bundle is shown at 20.00 USD",
      );
    } finally {
      await fake.close();
    }
  }, APP_START_ROOM);

  it('passes when every price exists, is active, one-time, and charges what the bundle shows', async () => {
    expect(await check(bundleCatalogue())).toBeNull();
  });

  it('refuses a price id Stripe does not know, naming the bundle and its shown amount', async () => {
    const message = await check(bundleCatalogue(), { STRIPE_PRICE_PRO: 'price_does_not_exist' });
    expect(message).toContain('Pro bundle: no Stripe price price_does_not_exist (STRIPE_PRICE_PRO); the bundle is shown at 20.00 USD');
  });

  it('refuses a missing lookup key', async () => {
    const message = await check(bundleCatalogue().filter((p) => p.id !== 'price_fake_power'));
    expect(message).toContain("Power bundle: no Stripe price with lookup key 'pixelrush_power'");
  });

  it('refuses an inactive price', async () => {
    expect(await check(catalogue((p) => (p.active = false)))).toContain("Pro bundle: Stripe price with lookup key 'pixelrush_pro' is inactive");
  });

  it('refuses a different amount or currency, with both amounts', async () => {
    expect(await check(catalogue((p) => (p.unit_amount = 2500)))).toContain(
      "Pro bundle: Stripe price with lookup key 'pixelrush_pro' charges 25.00 USD, but the bundle is shown at 20.00 USD",
    );
    expect(await check(catalogue((p) => (p.currency = 'eur')))).toContain('charges 20.00 EUR, but the bundle is shown at 20.00 USD');
  });

  it('refuses a recurring price for a one-time bundle', async () => {
    expect(await check(catalogue((p) => (p.type = 'recurring')))).toContain('is recurring; bundles are one-time payments');
  });

  it('a lookup key given in STRIPE_PRICE_* is looked up', async () => {
    const prices = [...bundleCatalogue(), price('price_other_pro', 2000, { lookup_key: 'pro_2027' })];
    expect(await check(prices, { STRIPE_PRICE_PRO: 'pro_2027' })).toBeNull();
  });
});
