import { z } from 'zod';

/** GET and PUT /api/settings/referral: whether registration needs an invite code. */
export const referralSettingsSchema = z.object({ is_referral_only: z.boolean() });
export type ReferralSettings = z.infer<typeof referralSettingsSchema>;
