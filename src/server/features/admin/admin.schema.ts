import { z } from 'zod';
import { ROLES } from '../../../shared/constants.js';
import { AppError } from '../../core/errors.js';
import { cursorParam } from '../../core/cursor.js';

/** requirements §8 admin words, plus precise validation messages for the pricing form. */
export const adminMessages = {
  updateSucceeded: 'All pricing, discount, and plan energy settings updated successfully!',
  updateFailed: 'Failed to update pricing',
  invalidUpdate: 'Pricing updates must be objects keyed by tool name or price id',
  tooManyEntries: 'Too many pricing updates in one request',
  unknownTool: (tool: string) => `Unknown tool '${tool}'`,
  unknownPlan: (priceId: string) => `Unknown plan '${priceId}'`,
  baseCost: (tool: string) => `Base cost for ${tool} must be a whole number from 0 to ${MAX_BASE_COST}`,
  discount: (tool: string) => `Discount for ${tool} must be a whole number from 0 to 100 in steps of 5`,
  planEnergy: (priceId: string) =>
    `Energy and bonus for ${priceId} must be whole numbers from 0 to ${MAX_PLAN_ENERGY}`,
  userNotFound: 'User not found',
  ownRole: 'You cannot change your own role',
} as const;

export const MAX_BASE_COST = 100_000;
export const MAX_PLAN_ENERGY = 1_000_000;
export const MAX_GRANT = 1_000_000;
const MAX_ENTRIES = 100;
/** requirements §5/§9: the discount slider moves in steps of 5. */
export const DISCOUNT_STEP = 5;

/** POST /functions/v1/admin-update-pricing, after validation. */
export interface PricingUpdate {
  toolPrices: Map<string, number>;
  toolDiscounts: Map<string, number>;
  planEnergy: Map<string, { energyAmount?: number; bonusEnergy?: number }>;
}

/** The wire shape (requirements §7). Values are checked by parsePricingUpdate, not by zod. */
export const pricingUpdateBody = z
  .object({
    pricing_updates: z.record(z.string(), z.unknown()).nullish(),
    tool_discounts: z.record(z.string(), z.unknown()).nullish(),
    plan_energy_updates: z.record(z.string(), z.unknown()).nullish(),
  })
  .passthrough()
  .nullish();

const NUMERIC = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** A number, or the number a numeric string spells; undefined for anything else. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value.trim());
  return undefined;
}

const wholeInRange = (n: number | undefined, max: number): n is number =>
  n !== undefined && Number.isInteger(n) && n >= 0 && n <= max;

function entries(section: unknown): [string, unknown][] {
  if (section === undefined || section === null) return [];
  if (typeof section !== 'object' || Array.isArray(section)) throw new AppError('validation', adminMessages.invalidUpdate);
  const list = Object.entries(section as Record<string, unknown>);
  if (list.length > MAX_ENTRIES) throw new AppError('validation', adminMessages.tooManyEntries);
  return list;
}

/**
 * requirements §5 admin rules, enforced on the server: base cost is a whole number
 * (the form makes a non-number 0; the API refuses anything but a finite,
 * non-negative whole number, literal 0 included as allowed); discount 0..100 in steps of 5; plan energy and bonus whole
 * numbers of at least 0. Throws AppError('validation') naming the field.
 */
export function parsePricingUpdate(body: unknown): PricingUpdate {
  if (body === undefined || body === null) body = {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new AppError('validation', adminMessages.invalidUpdate);
  const b = body as Record<string, unknown>;

  const toolPrices = new Map<string, number>();
  for (const [tool, raw] of entries(b.pricing_updates)) {
    // The form turns a non-number into 0 before sending (requirements §5); the API
    // itself takes only a number, so "NaN" or "  " can never make a tool free.
    const cost = numberOf(raw);
    if (!wholeInRange(cost, MAX_BASE_COST)) throw new AppError('validation', adminMessages.baseCost(tool));
    toolPrices.set(tool, cost);
  }

  const toolDiscounts = new Map<string, number>();
  for (const [tool, raw] of entries(b.tool_discounts)) {
    const pct = numberOf(raw);
    if (!wholeInRange(pct, 100) || pct % DISCOUNT_STEP !== 0) {
      throw new AppError('validation', adminMessages.discount(tool));
    }
    toolDiscounts.set(tool, pct);
  }

  const planEnergy = new Map<string, { energyAmount?: number; bonusEnergy?: number }>();
  for (const [priceId, raw] of entries(b.plan_energy_updates)) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new AppError('validation', adminMessages.planEnergy(priceId));
    const { energy_amount, bonus_energy } = raw as Record<string, unknown>;
    const energy = energy_amount === undefined ? undefined : numberOf(energy_amount);
    const bonus = bonus_energy === undefined ? undefined : numberOf(bonus_energy);
    if (
      (energy_amount !== undefined && !wholeInRange(energy, MAX_PLAN_ENERGY)) ||
      (bonus_energy !== undefined && !wholeInRange(bonus, MAX_PLAN_ENERGY))
    ) {
      throw new AppError('validation', adminMessages.planEnergy(priceId));
    }
    planEnergy.set(priceId, { energyAmount: energy, bonusEnergy: bonus });
  }

  return { toolPrices, toolDiscounts, planEnergy };
}

export const auditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: cursorParam,
});

export const usersQuery = z.object({
  query: z.string().max(200).optional().default(''),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: cursorParam,
});

export const userParams = z.object({ id: z.string().max(100) });

export const grantBody = z.object({
  amount: z.number().int().min(1).max(MAX_GRANT),
  reason: z.string().trim().max(200).optional(),
});

export const roleBody = z.object({ role: z.enum(ROLES) });

export const suspendBody = z.object({ reason: z.string().trim().max(200).optional() });
