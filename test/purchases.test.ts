import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyOnTestCheckout, createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';

// Account > Purchases and Admin > Purchases: history with status and receipt, search and paging, detail with ledger entries.
const ORIGIN = 'http://127.0.0.1:3000';
let t: TestApp;
let admin: TestUser;
let buyer: TestUser;
let other: TestUser;

const buy = (who: TestUser, priceId?: string) => buyOnTestCheckout(t, who, priceId);

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerUser(t, { role: 'admin' });
  buyer = await registerUser(t, { email: `buyer_${Date.now()}@example.com` });
  other = await registerUser(t);
});
afterAll(() => t.close());

describe('purchase history', () => {
  it('lists what the user bought, newest first, with status and a receipt; refunds show as refunded', async () => {
    const first = await buy(buyer, 'price_pixelrush_trial');
    const second = await buy(buyer, 'price_pixelrush_pro');
    // An open checkout that was never paid is not a purchase.
    await t.app.inject({ method: 'POST', url: '/functions/v1/stripe-checkout', headers: buyer.headers, payload: { price_id: 'price_pixelrush_power', mode: 'payment', success_url: `${ORIGIN}/success`, cancel_url: `${ORIGIN}/dashboard` } });
    await t.app.inject({ method: 'POST', url: `/api/admin/purchases/${first}/refund`, headers: admin.headers, payload: {} });

    const list = (await t.app.inject({ url: '/api/purchases', headers: buyer.headers })).json();
    expect(list.items.map((p: { id: string }) => p.id)).toEqual([second, first]);
    expect(list.items[0]).toMatchObject({ plan_name: 'Pro', amount_cents: 2000, currency: 'usd', energy: 110, status: 'paid', refunded_cents: 0, receipt_url: `/api/purchases/${second}/receipt` });
    expect(list.items[1]).toMatchObject({ plan_name: 'Trial', status: 'refunded', refunded_cents: 100, energy_taken_back: 7 });

    const page1 = (await t.app.inject({ url: '/api/purchases?limit=1', headers: buyer.headers })).json();
    const page2 = (await t.app.inject({ url: `/api/purchases?limit=1&cursor=${page1.next_cursor}`, headers: buyer.headers })).json();
    expect([page1.items[0].id, page2.items[0].id]).toEqual([second, first]);
    expect(page2.next_cursor).toBeNull();

    expect((await t.app.inject({ url: '/api/purchases', headers: other.headers })).json().items).toEqual([]);
  });

  it('the receipt is a printable page for its owner only', async () => {
    const id = (await t.app.inject({ url: '/api/purchases', headers: buyer.headers })).json().items[0].id;
    const receipt = await t.app.inject({ url: `/api/purchases/${id}/receipt`, headers: buyer.headers });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toContain('text/html');
    expect(receipt.body).toContain('Pro bundle: 110 ENERGY');
    expect(receipt.body).toContain('$20.00');
    expect(receipt.body).not.toContain('<script');
    expect((await t.app.inject({ url: `/api/purchases/${id}/receipt`, headers: other.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/purchases/${id}/receipt` })).statusCode).toBe(401);
    expect((await t.app.inject({ url: `/api/purchases/${encodeURIComponent("x' OR '1'='1")}/receipt`, headers: buyer.headers })).statusCode).toBe(404);
  });
});

describe('admin purchases', () => {
  it('searches by e-mail (LIKE characters are literal) and pages; the detail has the ledger entries', async () => {
    await buy(other);
    const all = (await t.app.inject({ url: '/api/admin/purchases', headers: admin.headers })).json();
    expect(all.items.length).toBe(3);
    const mine = (await t.app.inject({ url: `/api/admin/purchases?query=${encodeURIComponent(buyer.email.slice(0, 10))}`, headers: admin.headers })).json();
    expect(mine.items).toHaveLength(2);
    expect(mine.items.every((p: { user_email: string }) => p.user_email === buyer.email)).toBe(true);
    expect((await t.app.inject({ url: '/api/admin/purchases?query=%25', headers: admin.headers })).json().items).toHaveLength(0);
    expect((await t.app.inject({ url: '/api/admin/purchases?query=buyer_%25', headers: admin.headers })).json().items).toHaveLength(0);
    const p1 = (await t.app.inject({ url: '/api/admin/purchases?limit=2', headers: admin.headers })).json();
    const p2 = (await t.app.inject({ url: `/api/admin/purchases?limit=2&cursor=${p1.next_cursor}`, headers: admin.headers })).json();
    expect(new Set([...p1.items, ...p2.items].map((p: { id: string }) => p.id)).size).toBe(3);

    const refundedId = mine.items[1].id;
    const byId = (await t.app.inject({ url: `/api/admin/purchases?query=${refundedId}`, headers: admin.headers })).json();
    expect(byId.items.map((p: { id: string }) => p.id)).toEqual([refundedId]);
    const detail = (await t.app.inject({ url: `/api/admin/purchases/${refundedId}`, headers: admin.headers })).json();
    expect(detail).toMatchObject({ id: refundedId, user_email: buyer.email, provider: 'test', refundable_cents: 0, status: 'refunded' });
    expect(detail.entries.map((e: { type: string; amount: number }) => [e.type, e.amount])).toEqual([
      ['purchase', 7],
      ['reversal', -7],
    ]);
    const audit = (await t.app.inject({ url: '/api/admin/audit', headers: admin.headers })).json();
    expect(audit.items.some((a: { action: string; target: string }) => a.action === 'refund_purchase' && a.target === refundedId)).toBe(true);
  });

  it('is for admins only', async () => {
    expect((await t.app.inject({ url: '/api/admin/purchases', headers: buyer.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/purchases/x', headers: buyer.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/purchases/cs_missing', headers: admin.headers })).statusCode).toBe(404);
  });
});
