import { z } from 'zod';

/** A row of GET /api/pricing. */
export const toolPricingSchema = z.object({
  tool_name: z.string(),
  display_name: z.string(),
  description: z.string(),
  base_energy_cost: z.number().int(),
  discount_percentage: z.number().int(),
  is_active: z.boolean(),
  /** What the caller pays: 0 for VIP and admin. */
  effective_cost: z.number().int(),
});
export type ToolPricing = z.infer<typeof toolPricingSchema>;
