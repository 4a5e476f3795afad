import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import type { ToolPricing } from '../src/shared/pricing.schema.js';

/**
 * Admin Dashboard API: reliability A4 (admin-only on the server, database
 * unchanged for everyone else), admin-update-pricing validation and audit,
 * platform summary, users, grants and roles, the referral switch.
 */
let t: TestApp;
let user: TestUser;
let vip: TestUser;
let admin: TestUser;

const SUCCESS = 'All pricing, discount, and plan energy settings updated successfully!';

beforeAll(async () => {
  t = await createTestApp();
  user = await registerUser(t, { energy: 5 });
  vip = await registerUser(t, { role: 'vip' });
  admin = await registerUser(t, { role: 'admin' });
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, u?: TestUser | { authorization: string }, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: u ? ('headers' in u ? u.headers : u) : undefined,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const updatePricing = (payload: unknown, u: TestUser = admin) =>
  call('POST', '/functions/v1/admin-update-pricing', u, payload);

/** Every table an admin endpoint could touch, in a stable order. */
async function snapshot(): Promise<string> {
  const tables: Record<string, string> = {
    admin_tool_pricing: 'SELECT * FROM admin_tool_pricing ORDER BY tool_name',
    plan_energy_mapping: 'SELECT * FROM plan_energy_mapping ORDER BY price_id',
    referral_settings: 'SELECT * FROM referral_settings ORDER BY id',
    admin_audit: 'SELECT * FROM admin_audit ORDER BY id',
    users: 'SELECT id, email, role, updated_at FROM users ORDER BY id',
    user_profiles: 'SELECT * FROM user_profiles ORDER BY id',
    energy_transactions: 'SELECT * FROM energy_transactions ORDER BY seq',
  };
  const out: Record<string, unknown> = {};
  for (const [name, sql] of Object.entries(tables)) out[name] = await t.db.query(sql);
  return JSON.stringify(out);
}

describe('A4: admin endpoints refuse anonymous and non-admin callers, changing nothing', () => {
  const endpoints = (): { name: string; method: Method; url: string; body?: unknown }[] => [
    {
      name: 'admin-update-pricing',
      method: 'POST',
      url: '/functions/v1/admin-update-pricing',
      body: {
        pricing_updates: { 'video-upscaler': 0 },
        tool_discounts: { 'fal-upscaler': 100 },
        plan_energy_updates: { price_pixelrush_power: { energy_amount: 999999, bonus_energy: 999 } },
      },
    },
    { name: 'admin-update-pricing (invalid body)', method: 'POST', url: '/functions/v1/admin-update-pricing', body: { pricing_updates: { x: -1 } } },
    { name: 'PUT settings/referral', method: 'PUT', url: '/api/settings/referral', body: { is_referral_only: true } },
    { name: 'PUT settings/referral (invalid body)', method: 'PUT', url: '/api/settings/referral', body: { is_referral_only: 'yes' } },
    { name: 'admin summary', method: 'GET', url: '/api/admin/summary' },
    { name: 'admin audit', method: 'GET', url: '/api/admin/audit' },
    { name: 'admin users', method: 'GET', url: '/api/admin/users?query=' },
    { name: 'grant to self', method: 'POST', url: `/api/admin/users/${user.id}/grant`, body: { amount: 1000, reason: 'free money' } },
    { name: 'grant to another', method: 'POST', url: `/api/admin/users/${vip.id}/grant`, body: { amount: 1000 } },
    { name: 'role: make self admin', method: 'POST', url: `/api/admin/users/${user.id}/role`, body: { role: 'admin' } },
    { name: 'role: demote the admin', method: 'POST', url: `/api/admin/users/${admin.id}/role`, body: { role: 'user' } },
    { name: 'inactive plans', method: 'GET', url: '/api/plans?all=1' },
  ];

  it('anonymous -> 401, user and VIP -> 403, bad tokens -> 401; database unchanged', async () => {
    const before = await snapshot();
    const callers: { label: string; as?: TestUser | { authorization: string }; status: number }[] = [
      { label: 'anonymous', status: 401 },
      { label: 'garbage token', as: { authorization: 'Bearer not-a-session' }, status: 401 },
      { label: 'user', as: user, status: 403 },
      { label: 'vip', as: vip, status: 403 },
    ];
    const seen: string[] = [];
    for (const e of endpoints()) {
      for (const c of callers) {
        const res = await call(e.method, e.url, c.as, e.body);
        seen.push(`${e.name} as ${c.label}: ${res.statusCode}`);
        expect(res.statusCode, `${e.name} as ${c.label}`).toBe(c.status);
        expect(typeof res.json().error).toBe('string');
      }
    }
    expect(seen).toHaveLength(endpoints().length * callers.length);
    expect(await snapshot()).toBe(before);
  });

  it('a signed-out session is refused too', async () => {
    const other = await registerUser(t, { role: 'admin' });
    await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: other.headers });
    const before = await snapshot();
    const res = await updatePricing({ pricing_updates: { upscaler: 9 } }, other);
    expect(res.statusCode).toBe(401);
    expect(await snapshot()).toBe(before);
  });
});

describe('POST /functions/v1/admin-update-pricing', () => {
  const prices = async (u: TestUser) =>
    Object.fromEntries(((await call('GET', '/api/pricing', u)).json() as ToolPricing[]).map((r) => [r.tool_name, r]));

  it('validates on the server; a refused request changes nothing', async () => {
    const cases: [unknown, string][] = [
      [{ pricing_updates: { 'fal-upscaler': -1 } }, 'Base cost for fal-upscaler must be a whole number from 0 to 100000'],
      [{ pricing_updates: { 'fal-upscaler': 1.5 } }, 'Base cost for fal-upscaler must be a whole number from 0 to 100000'],
      [{ pricing_updates: { 'fal-upscaler': '-3' } }, 'Base cost for fal-upscaler must be a whole number from 0 to 100000'],
      [{ pricing_updates: { 'fal-upscaler': true } }, 'Base cost for fal-upscaler must be a whole number from 0 to 100000'],
      [{ pricing_updates: { 'fal-upscaler': 1e9 } }, 'Base cost for fal-upscaler must be a whole number from 0 to 100000'],
      [{ tool_discounts: { 'fal-upscaler': 7 } }, 'Discount for fal-upscaler must be a whole number from 0 to 100 in steps of 5'],
      [{ tool_discounts: { 'fal-upscaler': 105 } }, 'Discount for fal-upscaler must be a whole number from 0 to 100 in steps of 5'],
      [{ tool_discounts: { 'fal-upscaler': -5 } }, 'Discount for fal-upscaler must be a whole number from 0 to 100 in steps of 5'],
      [{ tool_discounts: { 'fal-upscaler': null } }, 'Discount for fal-upscaler must be a whole number from 0 to 100 in steps of 5'],
      [{ plan_energy_updates: { price_pixelrush_pro: { energy_amount: -1, bonus_energy: 0 } } }, 'Energy and bonus for price_pixelrush_pro must be whole numbers from 0 to 1000000'],
      [{ plan_energy_updates: { price_pixelrush_pro: { energy_amount: 10, bonus_energy: 2.5 } } }, 'Energy and bonus for price_pixelrush_pro must be whole numbers from 0 to 1000000'],
      [{ plan_energy_updates: { price_pixelrush_pro: 5 } }, 'Energy and bonus for price_pixelrush_pro must be whole numbers from 0 to 1000000'],
      [{ pricing_updates: { 'free-tool': 1 } }, "Unknown tool 'free-tool'"],
      [{ tool_discounts: { nope: 5 } }, "Unknown tool 'nope'"],
      [{ plan_energy_updates: { price_unknown: { energy_amount: 1, bonus_energy: 1 } } }, "Unknown plan 'price_unknown'"],
      // Valid changes next to an invalid one: all or nothing.
      [{ pricing_updates: { upscaler: 3, 'fal-upscaler': -1 } }, 'Base cost for fal-upscaler must be a whole number from 0 to 100000'],
      [{ pricing_updates: { upscaler: 3 }, plan_energy_updates: { price_nope: { energy_amount: 1 } } }, "Unknown plan 'price_nope'"],
    ];
    const before = await snapshot();
    for (const [body, message] of cases) {
      const res = await updatePricing(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: message, code: 'validation' });
    }
    expect(await snapshot()).toBe(before);
  });

  it('applies prices, discounts and plan energy in one go, audited, visible in GET /api/pricing and /api/plans', async () => {
    const res = await updatePricing({
      pricing_updates: { 'fal-upscaler': 4, 'video-upscaler': 20, 'fal-image-to-video': '6' },
      tool_discounts: { 'fal-upscaler': 50, 'video-upscaler': 5 },
      plan_energy_updates: { price_pixelrush_pro: { energy_amount: 120, bonus_energy: 15 } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: SUCCESS });

    const forUser = await prices(user);
    expect(forUser['fal-upscaler']).toMatchObject({ base_energy_cost: 4, discount_percentage: 50, effective_cost: 2 });
    expect(forUser['video-upscaler']).toMatchObject({ base_energy_cost: 20, discount_percentage: 5, effective_cost: 19 });
    expect(forUser['fal-image-to-video']).toMatchObject({ base_energy_cost: 6, effective_cost: 6 });
    expect((await prices(vip))['fal-upscaler'].effective_cost).toBe(0);
    expect((await prices(admin))['video-upscaler'].effective_cost).toBe(0);
    expect((await t.ctx.services.pricing.priceFor({ role: 'user' }, 'fal-upscaler')).cost).toBe(2);

    const pro = ((await call('GET', '/api/plans')).json() as { price_id: string }[]).find((p) => p.price_id === 'price_pixelrush_pro');
    expect(pro).toMatchObject({ energy_amount: 120, bonus_energy: 15, total_energy: 135 });

    const audit = await t.db.query<{ admin_id: string; action: string; target: string; old_value: unknown; new_value: unknown }>(
      `SELECT admin_id, action, target, old_value, new_value FROM admin_audit ORDER BY id`,
    );
    // A tool's price as [base cost, discount].
    const toolPriced = (target: string, [oldBase, oldDiscount]: number[], [newBase, newDiscount]: number[]) => ({
      admin_id: admin.id,
      action: 'update_tool_pricing',
      target,
      old_value: { base_energy_cost: oldBase, discount_percentage: oldDiscount },
      new_value: { base_energy_cost: newBase, discount_percentage: newDiscount },
    });
    expect(audit).toEqual([
      toolPriced('fal-upscaler', [2, 0], [4, 50]),
      toolPriced('video-upscaler', [20, 0], [20, 5]),
      toolPriced('fal-image-to-video', [5, 0], [6, 0]),
      {
        admin_id: admin.id,
        action: 'update_plan_energy',
        target: 'price_pixelrush_pro',
        old_value: { energy_amount: 110, bonus_energy: 0 },
        new_value: { energy_amount: 120, bonus_energy: 15 },
      },
    ]);

    // Saving the same values again succeeds and records nothing new.
    const again = await updatePricing({ pricing_updates: { 'fal-upscaler': 4 }, tool_discounts: { 'fal-upscaler': 50 } });
    expect(again.json()).toMatchObject({ success: true, message: SUCCESS, changes: 0 });
    expect(await t.db.query('SELECT 1 FROM admin_audit')).toHaveLength(4);
  });

  it('a base cost that is not a finite whole number is refused, never made 0; a literal 0 is allowed; an empty save succeeds', async () => {
    await updatePricing({ pricing_updates: { upscaler: 3 } });
    for (const value of [null, '', '  ', 'abc', 'NaN', 'Infinity', '-Infinity', '1e400', true, [2], { n: 2 }, 2.5, -1]) {
      const res = await updatePricing({ pricing_updates: { upscaler: value } });
      expect(res.statusCode, JSON.stringify(value)).toBe(400);
      expect(res.json().code).toBe('validation');
      expect((await prices(admin)).upscaler.base_energy_cost).toBe(3);
    }
    for (const value of [0, '0']) {
      await updatePricing({ pricing_updates: { upscaler: 3 } });
      expect((await updatePricing({ pricing_updates: { upscaler: value } })).statusCode).toBe(200);
      expect((await prices(admin)).upscaler.base_energy_cost).toBe(0);
    }
    const empty = await updatePricing({});
    expect(empty.json()).toMatchObject({ success: true, message: SUCCESS });
    const noBody = await t.app.inject({ method: 'POST', url: '/functions/v1/admin-update-pricing', headers: admin.headers });
    expect(noBody.statusCode).toBe(200);
    await updatePricing({ pricing_updates: { upscaler: 1 } });
  });

  it("a failure mid-save rolls everything back and answers 'Failed to update pricing'", async () => {
    const before = await snapshot();
    const spy = vi.spyOn(t.ctx.services.realtime, 'publish').mockRejectedValueOnce(new Error('connection lost'));
    try {
      const res = await updatePricing({ pricing_updates: { upscaler: 9 }, tool_discounts: { 'image-restore': 25 } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ error: 'Failed to update pricing' });
    } finally {
      spy.mockRestore();
    }
    expect(await snapshot()).toBe(before);
  });

  it('concurrent saves serialize: every change is audited with the right old value', async () => {
    // Only this try's saves: a retry must not count what the first try audited.
    const [{ last }] = await t.db.query<{ last: string }>('SELECT COALESCE(max(id), 0)::text AS last FROM admin_audit');
    const results = await Promise.all(
      [10, 20, 30, 40, 50].map((cost) => updatePricing({ pricing_updates: { 'image-restore': cost } })),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const rows = await t.db.query<{ old_value: { base_energy_cost: number }; new_value: { base_energy_cost: number } }>(
      `SELECT old_value, new_value FROM admin_audit WHERE target = 'image-restore' AND id > $1::bigint ORDER BY id`,
      [last],
    );
    expect(rows).toHaveLength(5);
    // A chain: each save's old value is the previous save's new value.
    for (let i = 1; i < rows.length; i++) expect(rows[i].old_value.base_energy_cost).toBe(rows[i - 1].new_value.base_energy_cost);
    const final = (await prices(admin))['image-restore'].base_energy_cost;
    expect(final).toBe(rows[rows.length - 1].new_value.base_energy_cost);
    await updatePricing({ pricing_updates: { 'image-restore': 1 } });
  });
});

describe('referral switch', () => {
  it('GET is public; PUT is admin-only, audited and validated', async () => {
    expect((await call('GET', '/api/settings/referral')).json()).toEqual({ is_referral_only: false });
    const on = await call('PUT', '/api/settings/referral', admin, { is_referral_only: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ is_referral_only: true });
    expect((await call('GET', '/api/settings/referral')).json()).toEqual({ is_referral_only: true });
    expect(await t.ctx.services.settings.isReferralOnly()).toBe(true);

    const bad = await call('PUT', '/api/settings/referral', admin, { is_referral_only: 'yes' });
    expect(bad.statusCode).toBe(400);

    const off = await call('PUT', '/api/settings/referral', admin, { is_referral_only: false });
    expect(off.json()).toEqual({ is_referral_only: false });
    const audit = await t.db.query<{ action: string; old_value: unknown; new_value: unknown }>(
      `SELECT action, old_value, new_value FROM admin_audit WHERE action = 'set_referral_only' ORDER BY id`,
    );
    expect(audit).toEqual([
      { action: 'set_referral_only', old_value: { is_referral_only: false }, new_value: { is_referral_only: true } },
      { action: 'set_referral_only', old_value: { is_referral_only: true }, new_value: { is_referral_only: false } },
    ]);
  });
});

describe('operators: users, grants, roles', () => {
  it('searches users by e-mail', async () => {
    const res = await call('GET', `/api/admin/users?query=${encodeURIComponent(user.email.slice(0, 12).toUpperCase())}`, admin);
    expect(res.statusCode).toBe(200);
    const found = res.json().items.find((u: { id: string }) => u.id === user.id);
    expect(found).toMatchObject({ id: user.id, email: user.email, role: 'user', energy_balance: 5 });
    expect(Object.keys(found)).toEqual(expect.arrayContaining(['id', 'email', 'full_name', 'role', 'energy_balance']));
    // LIKE wildcards in the query are literal.
    expect((await call('GET', '/api/admin/users?query=%25', admin)).json().items).toEqual([]);
  });

  it('grants ENERGY through the ledger, audited', async () => {
    const target = await registerUser(t);
    const res = await call('POST', `/api/admin/users/${target.id}/grant`, admin, { amount: 25, reason: 'Support credit' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user_id: target.id, amount: 25, energy_balance: 25 });
    const ledger = await t.db.query(`SELECT type, amount, description FROM energy_transactions WHERE user_id = $1`, [target.id]);
    expect(ledger).toEqual([{ type: 'grant', amount: 25, description: 'Support credit' }]);
    const audit = await t.db.query(`SELECT admin_id, new_value FROM admin_audit WHERE action = 'grant_energy' AND target = $1`, [target.id]);
    expect(audit).toEqual([{ admin_id: admin.id, new_value: { energy_balance: 25, amount: 25, reason: 'Support credit' } }]);

    for (const body of [{ amount: 0 }, { amount: -5 }, { amount: 1.5 }, { amount: '10' }, {}]) {
      expect((await call('POST', `/api/admin/users/${target.id}/grant`, admin, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('POST', `/api/admin/users/${randomUUID()}/grant`, admin, { amount: 1 })).statusCode).toBe(404);
    expect((await call('POST', `/api/admin/users/not-a-uuid/grant`, admin, { amount: 1 })).statusCode).toBe(404);
  });

  it("changes roles, audited; never the caller's own", async () => {
    const target = await registerUser(t);
    const res = await call('POST', `/api/admin/users/${target.id}/role`, admin, { role: 'vip' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user_id: target.id, role: 'vip' });
    const vipStatus = await call('POST', '/functions/v1/check-vip-status', target);
    expect(vipStatus.json()).toEqual({ isVip: true });
    const audit = await t.db.query(`SELECT old_value, new_value FROM admin_audit WHERE action = 'set_role' AND target = $1`, [target.id]);
    expect(audit).toEqual([{ old_value: { role: 'user' }, new_value: { role: 'vip' } }]);

    const self = await call('POST', `/api/admin/users/${admin.id}/role`, admin, { role: 'user' });
    expect(self.statusCode).toBe(409);
    expect((await call('POST', `/api/admin/users/${target.id}/role`, admin, { role: 'owner' })).statusCode).toBe(400);
    expect((await call('POST', `/api/admin/users/${randomUUID()}/role`, admin, { role: 'vip' })).statusCode).toBe(404);
  });
});

describe('GET /api/admin/summary and /api/admin/audit', () => {
  it('summarizes accounts, ENERGY and revenue from the ledger', async () => {
    // A second, empty database for exact numbers.
    const s = { t: await createTestApp() };
    try {
      const buyer = await registerUser(s.t);
      const boss = await registerUser(s.t, { role: 'admin' });
      await registerUser(s.t, { role: 'vip' });
      const energy = s.t.ctx.services.energy;
      await energy.purchase({ userId: buyer.id, energy: 50, paymentId: 'pay_1', amountPaidCents: 1000, description: 'Starter' });
      await energy.purchase({ userId: buyer.id, energy: 7, paymentId: 'pay_2', amountPaidCents: 100, description: 'Trial' });
      const job1 = randomUUID();
      const job2 = randomUUID();
      await energy.spend({ userId: buyer.id, cost: 20, toolName: 'Video Upscaler', tool: 'video-upscaler', description: 'v', jobId: job1 });
      await energy.spend({ userId: buyer.id, cost: 2, toolName: 'Image Upscaler', tool: 'fal-upscaler', description: 'u', jobId: job2 });
      await energy.spend({ userId: buyer.id, cost: 2, toolName: 'Image Upscaler', tool: 'fal-upscaler', description: 'u' });
      await energy.refund(job1, 'failed');

      const res = await s.t.app.inject({ method: 'GET', url: '/api/admin/summary', headers: boss.headers });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        accounts: 3,
        vip_accounts: 1,
        admin_accounts: 1,
        energy_sold: 57,
        energy_spent: 4,
        energy_refunded: 20,
        energy_granted: 0,
        energy_in_balances: 53,
        revenue_cents: 1100,
        purchases: 2,
      });
      expect(body.runs_by_tool).toEqual([
        { tool_name: 'fal-upscaler', runs: 2, refunded_runs: 0, energy_spent: 4 },
        { tool_name: 'video-upscaler', runs: 1, refunded_runs: 1, energy_spent: 0 },
      ]);
      expect(Date.parse(body.generated_at)).toBeGreaterThan(0);
    } finally {
      await s.t.close();
    }
  });

  it('lists the audit trail newest first, paged', async () => {
    const first = await call('GET', '/api/admin/audit?limit=3', admin);
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.items).toHaveLength(3);
    const ids = page1.items.map((i: { id: number }) => i.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(page1.items[0]).toMatchObject({ admin_id: admin.id, admin_email: admin.email });
    const all: number[] = [...ids];
    let cursor = page1.next_cursor;
    while (cursor) {
      const page = (await call('GET', `/api/admin/audit?limit=3&cursor=${cursor}`, admin)).json();
      all.push(...page.items.map((i: { id: number }) => i.id));
      cursor = page.next_cursor;
    }
    const total = await t.db.query('SELECT id FROM admin_audit');
    expect(all).toHaveLength(total.length);
    expect(new Set(all).size).toBe(all.length);
    expect((await call('GET', '/api/admin/audit?cursor=zzz', admin)).statusCode).toBe(400);
  });
});
