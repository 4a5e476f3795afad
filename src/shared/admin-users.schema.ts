import { z } from 'zod';
import { ROLES } from './constants.js';

/** A row of GET /api/admin/users (the account lookup). */
export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  full_name: z.string(),
  role: z.enum(ROLES),
  energy_balance: z.number().int(),
  total_energy_purchased: z.number().int(),
  created_at: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** POST /api/admin/users/:id/grant: the ENERGY given and the balance after it. */
export const grantResultSchema = z.object({
  user_id: z.string(),
  amount: z.number().int(),
  energy_balance: z.number().int(),
});
export type GrantResult = z.infer<typeof grantResultSchema>;

/** POST /api/admin/users/:id/role: the account's role now. */
export const roleResultSchema = z.object({ user_id: z.string(), role: z.enum(ROLES) });
export type RoleResult = z.infer<typeof roleResultSchema>;
