import type { Db, Queryable } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import type { Role } from '../../../shared/constants.js';
import { BUNDLES, type Bundle, type BundleOffer, type PlanEnergy } from '../../../shared/bundles.js';
import { effectiveCost } from '../../../shared/pricing.js';
import type { ToolPricing } from '../../../shared/pricing.schema.js';
import * as repo from './pricing.repo.js';

/** Who is asking: the price depends on the role only (never on anything the client sends). */
export interface Caller {
  role: Role;
}

/** What a tool run costs the caller, priced on the server (reliability L6). */
export interface ToolPrice {
  toolName: string;
  displayName: string;
  /** What the caller pays: 0 for VIP and admin. */
  cost: number;
  baseCost: number;
  discountPercentage: number;
}

export const pricingMessages = {
  unknownTool: (tool: string) => `Unknown tool '${tool}'`,
  toolUnavailable: (displayName: string) => `${displayName} is currently unavailable`,
} as const;

const paysNothing = (role: Role) => role === 'vip' || role === 'admin';

export class PricingService {
  constructor(private readonly db: Db) {}

  /** GET /api/pricing: active rows for users, all rows for admins, with the caller's cost. */
  async listToolPricing(caller: Caller): Promise<ToolPricing[]> {
    const rows = await repo.listToolPricing(this.db, caller.role === 'admin');
    return rows.map((row) => toToolPricing(row, caller.role));
  }

  /**
   * The price of one run of toolName for this caller. Takes nothing else from
   * the request: a cost or energy_used sent by a client is never consulted.
   * Pass the run's transaction to price and charge in the same unit.
   */
  async priceFor(caller: Caller, toolName: string, q: Queryable = this.db): Promise<ToolPrice> {
    const row = typeof toolName === 'string' ? await repo.findToolPricing(q, toolName) : undefined;
    if (!row) throw new AppError('not_found', pricingMessages.unknownTool(String(toolName)));
    if (!row.is_active) throw new AppError('unprocessable', pricingMessages.toolUnavailable(row.display_name));
    return {
      toolName: row.tool_name,
      displayName: row.display_name,
      cost: paysNothing(caller.role) ? 0 : effectiveCost(row.base_energy_cost, row.discount_percentage),
      baseCost: row.base_energy_cost,
      discountPercentage: row.discount_percentage,
    };
  }

  /** GET /api/plans: active plans by price; includeInactive is for admins (checked by the caller). */
  async listPlans(includeInactive = false): Promise<PlanEnergy[]> {
    const rows = await repo.listPlans(this.db, includeInactive);
    return rows.map(toPlanEnergy);
  }

  /** The active plan behind a checkout price id (what a purchase of it credits), or undefined. */
  async findActivePlan(priceId: string, q: Queryable = this.db): Promise<PlanEnergy | undefined> {
    const row = await repo.findPlanByPriceId(q, priceId);
    return row && row.is_active ? toPlanEnergy(row) : undefined;
  }

  /** GET /api/bundles: the four fixed bundles whose plan row is active, in their fixed order. */
  async listBundles(priceIdOf: (bundle: Bundle) => string = (b) => b.priceId): Promise<BundleOffer[]> {
    const plans = new Map((await repo.listPlans(this.db, false)).map((p) => [p.price_id, p]));
    return BUNDLES.flatMap((b) => {
      const plan = plans.get(b.priceId);
      if (!plan) return [];
      return [
        {
          id: b.id,
          // What checkout is asked for: the configured Stripe price of the bundle.
          price_id: priceIdOf(b),
          name: b.name,
          description: b.description,
          price_cents: b.priceCents,
          mode: b.mode,
          energy_amount: plan.energy_amount,
          bonus_energy: plan.bonus_energy,
          total_energy: plan.energy_amount + plan.bonus_energy,
        },
      ];
    });
  }
}

export function toToolPricing(row: repo.ToolPricingRow, role: Role): ToolPricing {
  return {
    tool_name: row.tool_name,
    display_name: row.display_name,
    description: row.description,
    base_energy_cost: row.base_energy_cost,
    discount_percentage: row.discount_percentage,
    is_active: row.is_active,
    effective_cost: paysNothing(role) ? 0 : effectiveCost(row.base_energy_cost, row.discount_percentage),
  };
}

export function toPlanEnergy(row: repo.PlanRow): PlanEnergy {
  return {
    id: row.id,
    price_id: row.price_id,
    plan_name: row.plan_name,
    price_cents: row.price_cents,
    energy_amount: row.energy_amount,
    bonus_energy: row.bonus_energy,
    is_active: row.is_active,
    total_energy: row.energy_amount + row.bonus_energy,
  };
}
