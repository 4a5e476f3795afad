import { z } from 'zod';

/** GET /api/me: the profile in the spec's field names plus role flags. */
export const meResponse = z.object({
  id: z.string(),
  email: z.string(),
  full_name: z.string(),
  energy_balance: z.number().int(),
  total_energy_purchased: z.number().int(),
  /** ENERGY owed after a refund or dispute of ENERGY already spent (decision 028); paid runs wait until it is settled. */
  energy_owed: z.number().int(),
  is_vip: z.boolean(),
  is_admin: z.boolean(),
});
export type MeResponse = z.infer<typeof meResponse>;

/**
 * Who this browser is, asked without being signed in: the profile, or null for a visitor (or a
 * session that has ended). Always 200, so a signed-out page logs no failed request.
 */
export const sessionResponse = z.object({ user: meResponse.nullable() });

/** The role checks (requirements §7), answered by the server in the spec's field names. */
export const vipStatusResponse = z.object({ isVip: z.boolean() });
export const adminStatusResponse = z.object({ isAdmin: z.boolean() });
