import { z } from 'zod';

const count = z.number().int();

/** GET /api/admin/summary: accounts, ENERGY and revenue from the ledger. */
export const platformSummarySchema = z.object({
  accounts: count,
  vip_accounts: count,
  admin_accounts: count,
  /** ENERGY credited by purchases. */
  energy_sold: count,
  /** ENERGY charged for runs, minus what was refunded. */
  energy_spent: count,
  energy_refunded: count,
  energy_granted: count,
  /** Sum of all balances (= sold + granted - spent, by the ledger invariant). */
  energy_in_balances: count,
  revenue_cents: count,
  purchases: count,
  /** Most runs first; a refunded run's ENERGY is not counted as spent. */
  runs_by_tool: z.array(z.object({ tool_name: z.string(), runs: count, refunded_runs: count, energy_spent: count })),
  generated_at: z.string(),
});
export type PlatformSummary = z.infer<typeof platformSummarySchema>;
export type RunsByTool = PlatformSummary['runs_by_tool'][number];

/** A row of GET /api/admin/audit. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  /** Null once the admin's account is gone. */
  admin_id: z.string().nullable(),
  admin_email: z.string().nullable(),
  /** An open set: entries written under an older name still list. */
  action: z.string(),
  target: z.string(),
  old_value: z.unknown(),
  new_value: z.unknown(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** POST /functions/v1/admin-update-pricing (requirements §7). */
export const pricingUpdateResultSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Tools and plans whose values changed (0 when everything was already so). */
  changes: count,
});
export type PricingUpdateResult = z.infer<typeof pricingUpdateResultSchema>;

/**
 * POST /functions/v1/admin-update-pricing as the admin screen sends it (requirements §7):
 * only what changed. The route reads a looser wire shape and checks every value itself.
 */
export const pricingUpdateRequestSchema = z.object({
  pricing_updates: z.record(z.string(), z.number()),
  tool_discounts: z.record(z.string(), z.number()),
  plan_energy_updates: z.record(z.string(), z.object({ energy_amount: z.number().optional(), bonus_energy: z.number().optional() })),
});
export type PricingUpdateBody = z.infer<typeof pricingUpdateRequestSchema>;
