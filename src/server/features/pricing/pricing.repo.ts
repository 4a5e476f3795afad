import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';

export interface ToolPricingRow {
  tool_name: string;
  display_name: string;
  description: string;
  base_energy_cost: number;
  discount_percentage: number;
  is_active: boolean;
  updated_at: Date;
}

export interface PlanRow {
  id: string;
  price_id: string;
  plan_name: string;
  price_cents: number;
  energy_amount: number;
  bonus_energy: number;
  is_active: boolean;
  updated_at: Date;
}

export function listToolPricing(db: Queryable, includeInactive: boolean) {
  return db.query<ToolPricingRow>(
    `SELECT * FROM admin_tool_pricing WHERE is_active OR $1::boolean ORDER BY display_name, tool_name`,
    [includeInactive],
  );
}

export function findToolPricing(db: Queryable, toolName: string) {
  return one<ToolPricingRow>(db, 'SELECT * FROM admin_tool_pricing WHERE tool_name = $1', [toolName]);
}

/** Rows to change, locked until the caller's transaction ends (concurrent saves queue up). */
export function lockToolPricing(db: Queryable, toolNames: string[]) {
  return db.query<ToolPricingRow>(
    'SELECT * FROM admin_tool_pricing WHERE tool_name = ANY($1::text[]) ORDER BY tool_name FOR UPDATE',
    [toolNames],
  );
}

export function updateToolPricing(db: Queryable, toolName: string, baseEnergyCost: number, discountPercentage: number) {
  return db.query(
    `UPDATE admin_tool_pricing SET base_energy_cost = $2, discount_percentage = $3, updated_at = now()
      WHERE tool_name = $1`,
    [toolName, baseEnergyCost, discountPercentage],
  );
}

export function listPlans(db: Queryable, includeInactive: boolean) {
  return db.query<PlanRow>(
    `SELECT * FROM plan_energy_mapping WHERE is_active OR $1::boolean ORDER BY price_cents, plan_name`,
    [includeInactive],
  );
}

export function findPlanByPriceId(db: Queryable, priceId: string) {
  return one<PlanRow>(db, 'SELECT * FROM plan_energy_mapping WHERE price_id = $1', [priceId]);
}

export function lockPlans(db: Queryable, priceIds: string[]) {
  return db.query<PlanRow>(
    'SELECT * FROM plan_energy_mapping WHERE price_id = ANY($1::text[]) ORDER BY price_id FOR UPDATE',
    [priceIds],
  );
}

export function updatePlanEnergy(db: Queryable, priceId: string, energyAmount: number, bonusEnergy: number) {
  return db.query(
    `UPDATE plan_energy_mapping SET energy_amount = $2, bonus_energy = $3, updated_at = now() WHERE price_id = $1`,
    [priceId, energyAmount, bonusEnergy],
  );
}
