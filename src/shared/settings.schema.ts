import { z } from 'zod';

/** GET and PUT /api/settings/referral: whether registration needs an invite code. */
export const referralSettingsSchema = z.object({ is_referral_only: z.boolean() });
export type ReferralSettings = z.infer<typeof referralSettingsSchema>;

/** The largest welcome grant an admin may set, in ENERGY. */
export const MAX_WELCOME_ENERGY = 100_000;

/** GET and PUT /api/admin/welcome-grant: ENERGY every new account gets once (0: none). */
export const welcomeGrantMessages = {
  range: `The welcome grant must be a whole number of ENERGY from 0 to ${MAX_WELCOME_ENERGY.toLocaleString('en-US')}`,
} as const;
export const welcomeGrantSchema = z.object({
  welcome_energy: z
    .number({ error: welcomeGrantMessages.range })
    .int({ error: welcomeGrantMessages.range })
    .min(0, { error: welcomeGrantMessages.range })
    .max(MAX_WELCOME_ENERGY, { error: welcomeGrantMessages.range }),
});
export type WelcomeGrant = z.infer<typeof welcomeGrantSchema>;
