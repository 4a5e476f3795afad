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
  /** ENERGY owed after a refund or dispute (decision 028). */
  energy_owed: z.number().int(),
  created_at: z.string(),
  /** Set while an admin has suspended the account (decision 028). */
  suspended_at: z.string().nullable(),
  suspended_reason: z.string().nullable(),
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

/** POST /api/admin/users/:id/suspend and /reinstate: the account's state now. */
export const suspensionResultSchema = z.object({
  user_id: z.string(),
  suspended: z.boolean(),
  /** Sessions ended by this suspension (0 for a reinstatement). */
  sessions_ended: z.number().int(),
  /** Queued or running runs cancelled and refunded by this suspension. */
  runs_cancelled: z.number().int(),
});
export type SuspensionResult = z.infer<typeof suspensionResultSchema>;
