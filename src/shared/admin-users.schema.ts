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
