import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { AppError } from '../src/server/core/errors.js';
import { BUNDLES } from '../src/shared/bundles.js';
import { effectiveCost } from '../src/shared/pricing.js';

/** requirements §3/§9: the price rows, their default prices, and the names people see. */
const SPEC_ROWS: Record<string, { display_name: string; description: string; base_energy_cost: number }> = {
  upscaler: { display_name: 'Basic Upscaler', description: 'Fast upscaling for everyday images', base_energy_cost: 1 },
  'fal-upscaler': { display_name: 'Image Upscaler', description: 'Enlarge images up to 8x with AI super-resolution', base_energy_cost: 2 },
  'fal-image-editor': { display_name: 'Image Editor', description: 'Edit images by describing the changes you want', base_energy_cost: 1 },
  'image-restore': { display_name: 'Image Restore', description: 'Repair damaged, old or corrupted images', base_energy_cost: 1 },
  'fal-image-to-video': { display_name: 'Image to Video', description: 'Bring a still image to life as a short video', base_energy_cost: 5 },
  'video-upscaler': { display_name: 'Video Upscaler', description: 'Increase the resolution of your videos', base_energy_cost: 20 },
};
const TOOL_NAMES = Object.keys(SPEC_ROWS);
import type { ToolPricing } from '../src/shared/pricing.schema.js';

/** Reliability L6: the server prices the work. Plus plans and bundles. */
let t: TestApp;
let user: TestUser;
let vip: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await registerUser(t);
  vip = await registerUser(t, { role: 'vip' });
  admin = await registerUser(t, { role: 'admin' });
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, u?: TestUser) => t.app.inject({ method: 'GET', url, headers: u?.headers });

describe('effectiveCost (L6 arithmetic)', () => {
  it.each([
    [1, 0, 1],
    [2, 0, 2],
    [20, 0, 20],
    [5, 5, 4],
    [1, 5, 0],
    [20, 5, 19],
    [5, 50, 2],
    [2, 50, 1],
    [1, 50, 0],
    [20, 50, 10],
    [7, 50, 3],
    [20, 100, 0],
    [0, 0, 0],
    [0, 50, 0],
    [99, 95, 4],
    [100, 33, 67],
  ])('base %i with %i%% off costs %i', (base, discount, expected) => {
    expect(effectiveCost(base, discount)).toBe(expected);
  });

  it('never below 0 and never above the base, whatever it is given', () => {
    expect(effectiveCost(-5, 0)).toBe(0);
    expect(effectiveCost(10, 150)).toBe(0);
    expect(effectiveCost(10, -20)).toBe(10);
    expect(effectiveCost(Number.NaN, 10)).toBe(0);
  });
});

describe('GET /api/pricing', () => {
  it('seeded with the spec defaults, active rows ordered by display name', async () => {
    const res = await get('/api/pricing', user);
    expect(res.statusCode).toBe(200);
    const rows = res.json() as ToolPricing[];
    expect(rows.map((r) => r.tool_name).sort()).toEqual([...TOOL_NAMES].sort());
    const names = rows.map((r) => r.display_name);
    expect(names).toEqual([...names].sort());
    for (const r of rows) {
      const spec = SPEC_ROWS[r.tool_name]!;
      expect(r).toEqual({ tool_name: r.tool_name, ...spec, discount_percentage: 0, is_active: true, effective_cost: spec.base_energy_cost });
    }
  });

  it('discounts apply for users; VIP and admin pay 0; inactive rows only for admins', async () => {
    await t.db.query(`UPDATE admin_tool_pricing SET discount_percentage = 50 WHERE tool_name = 'fal-image-to-video'`);
    await t.db.query(`UPDATE admin_tool_pricing SET discount_percentage = 5 WHERE tool_name = 'video-upscaler'`);
    await t.db.query(`UPDATE admin_tool_pricing SET is_active = false WHERE tool_name = 'upscaler'`);
    try {
      const byTool = (rows: ToolPricing[]) => Object.fromEntries(rows.map((r) => [r.tool_name, r]));
      const forUser = byTool((await get('/api/pricing', user)).json());
      expect(forUser['fal-image-to-video'].effective_cost).toBe(2);
      expect(forUser['video-upscaler'].effective_cost).toBe(19);
      expect(forUser.upscaler).toBeUndefined();

      const forVip = byTool((await get('/api/pricing', vip)).json());
      expect(Object.values(forVip).every((r) => r.effective_cost === 0)).toBe(true);
      expect(forVip['video-upscaler'].base_energy_cost).toBe(20);
      expect(forVip.upscaler).toBeUndefined();

      const forAdmin = byTool((await get('/api/pricing', admin)).json());
      expect(Object.keys(forAdmin)).toHaveLength(TOOL_NAMES.length);
      expect(forAdmin.upscaler.is_active).toBe(false);
      expect(Object.values(forAdmin).every((r) => r.effective_cost === 0)).toBe(true);
    } finally {
      await t.db.query(`UPDATE admin_tool_pricing SET discount_percentage = 0, is_active = true`);
    }
  });

  it('requires sign-in', async () => {
    const res = await get('/api/pricing');
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('No authentication token found');
  });
});

describe('PricingService.priceFor', () => {
  const pricing = () => t.ctx.services.pricing;

  it('prices by role and the stored row only', async () => {
    await t.db.query(`UPDATE admin_tool_pricing SET base_energy_cost = 5, discount_percentage = 50 WHERE tool_name = 'fal-image-editor'`);
    try {
      expect(await pricing().priceFor({ role: 'user' }, 'fal-image-editor')).toEqual({
        toolName: 'fal-image-editor',
        displayName: 'Image Editor',
        cost: 2,
        baseCost: 5,
        discountPercentage: 50,
      });
      expect((await pricing().priceFor({ role: 'vip' }, 'fal-image-editor')).cost).toBe(0);
      expect((await pricing().priceFor({ role: 'admin' }, 'fal-image-editor')).cost).toBe(0);
    } finally {
      await t.db.query(`UPDATE admin_tool_pricing SET base_energy_cost = 1, discount_percentage = 0 WHERE tool_name = 'fal-image-editor'`);
    }
  });

  it('ignores any client-sent cost: only the tool name is an input', async () => {
    // A caller object carrying extra, hostile fields changes nothing.
    const hostile = { role: 'user' as const, cost: 0, energy_used: 0, base_energy_cost: 0, discount_percentage: 100 };
    expect((await pricing().priceFor(hostile, 'video-upscaler')).cost).toBe(20);
    expect(pricing().priceFor.length).toBeLessThanOrEqual(3);
  });

  it('refuses unknown and inactive tools', async () => {
    await expect(pricing().priceFor({ role: 'user' }, 'free-everything')).rejects.toMatchObject({ code: 'not_found' });
    await expect(pricing().priceFor({ role: 'admin' }, '')).rejects.toBeInstanceOf(AppError);
    await t.db.query(`UPDATE admin_tool_pricing SET is_active = false WHERE tool_name = 'image-restore'`);
    try {
      await expect(pricing().priceFor({ role: 'user' }, 'image-restore')).rejects.toMatchObject({
        code: 'unprocessable',
        message: 'Image Restore is currently unavailable',
      });
    } finally {
      await t.db.query(`UPDATE admin_tool_pricing SET is_active = true WHERE tool_name = 'image-restore'`);
    }
  });
});

describe('GET /api/plans and /api/bundles', () => {
  it('plans: active rows by price with total_energy; ?all=1 for admins only', async () => {
    const res = await get('/api/plans');
    expect(res.statusCode).toBe(200);
    const plans = res.json() as { price_id: string; plan_name: string; price_cents: number; energy_amount: number; bonus_energy: number; total_energy: number; is_active: boolean }[];
    expect(plans.map((p) => [p.plan_name, p.price_cents, p.energy_amount, p.bonus_energy, p.total_energy])).toEqual([
      ['Trial', 100, 7, 0, 7],
      ['Starter', 1000, 50, 0, 50],
      ['Pro', 2000, 110, 0, 110],
      ['Power', 5000, 300, 0, 300],
    ]);
    expect(plans.map((p) => p.price_id)).toEqual(BUNDLES.map((b) => b.priceId));

    await t.db.query(`UPDATE plan_energy_mapping SET is_active = false, bonus_energy = 10 WHERE plan_name = 'Trial'`);
    try {
      expect((await get('/api/plans', user)).json()).toHaveLength(3);
      expect((await get('/api/plans?all=1')).statusCode).toBe(401);
      expect((await get('/api/plans?all=1', user)).statusCode).toBe(403);
      const all = (await get('/api/plans?all=1', admin)).json();
      expect(all).toHaveLength(4);
      expect(all[0]).toMatchObject({ plan_name: 'Trial', is_active: false, total_energy: 17 });

      const bundles = (await get('/api/bundles')).json() as { id: string }[];
      expect(bundles.map((b) => b.id)).toEqual(['starter', 'pro', 'power']);
    } finally {
      await t.db.query(`UPDATE plan_energy_mapping SET is_active = true, bonus_energy = 0`);
    }
  });

  it('bundles: the fixed four joined with their plan energy', async () => {
    await t.db.query(`UPDATE plan_energy_mapping SET bonus_energy = 15 WHERE price_id = 'price_pixelrush_pro'`);
    try {
      const res = await get('/api/bundles', user);
      expect(res.statusCode).toBe(200);
      const bundles = res.json();
      expect(bundles).toHaveLength(4);
      expect(bundles[2]).toEqual({
        id: 'pro',
        price_id: 'price_pixelrush_pro',
        name: 'Pro',
        description: BUNDLES[2].description,
        price_cents: 2000,
        mode: 'payment',
        energy_amount: 110,
        bonus_energy: 15,
        total_energy: 125,
      });
    } finally {
      await t.db.query(`UPDATE plan_energy_mapping SET bonus_energy = 0`);
    }
  });
});
