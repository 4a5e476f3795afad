import { z } from 'zod';

const BUNDLE_IDS = ['trial', 'starter', 'pro', 'power'] as const;

/**
 * ENERGY bundles (requirements §3, §9). Fixed product definitions; the energy and
 * bonus a bundle grants come from plan_energy_mapping (admin-editable),
 * seeded with these defaults. `priceId` is the bundle's own id in our
 * tables and on the built-in test checkout; with Stripe, each bundle sells
 * under the Stripe price named by STRIPE_PRICE_* or found by lookup key.
 */
export interface Bundle {
  id: (typeof BUNDLE_IDS)[number];
  priceId: string;
  name: string;
  description: string;
  priceCents: number;
  defaultEnergy: number;
  mode: 'payment';
}

export const BUNDLES: readonly Bundle[] = [
  { id: 'trial', priceId: 'price_pixelrush_trial', name: 'Trial', description: 'Try every tool once or twice', priceCents: 100, defaultEnergy: 7, mode: 'payment' },
  { id: 'starter', priceId: 'price_pixelrush_starter', name: 'Starter', description: 'For occasional creators', priceCents: 1000, defaultEnergy: 50, mode: 'payment' },
  { id: 'pro', priceId: 'price_pixelrush_pro', name: 'Pro', description: 'Best value for regular work', priceCents: 2000, defaultEnergy: 110, mode: 'payment' },
  { id: 'power', priceId: 'price_pixelrush_power', name: 'Power', description: 'For studios and heavy video use', priceCents: 5000, defaultEnergy: 300, mode: 'payment' },
];

/** Every bundle is priced in US dollars (requirements §9: 1, 10, 20 and 50 dollars). */
export const BUNDLE_CURRENCY = 'usd';

/** The third bundle is marked POPULAR in the purchase dialog. */
export const POPULAR_BUNDLE_INDEX = 2;

/** A row of GET /api/plans (requirements §3 plan_energy_mapping); inactive rows only in the admin's list. */
export const planEnergySchema = z.object({
  id: z.string(),
  price_id: z.string(),
  plan_name: z.string(),
  price_cents: z.number().int(),
  energy_amount: z.number().int(),
  bonus_energy: z.number().int(),
  is_active: z.boolean(),
  total_energy: z.number().int(),
});
export type PlanEnergy = z.infer<typeof planEnergySchema>;

/** A row of GET /api/bundles: a fixed bundle joined with its admin-editable energy (plan_energy_mapping). */
export const bundleOfferSchema = z.object({
  id: z.enum(BUNDLE_IDS),
  /** What checkout is asked for: with Stripe, the Stripe price the bundle sells under. */
  price_id: z.string(),
  name: z.string(),
  description: z.string(),
  price_cents: z.number().int(),
  mode: z.literal('payment'),
  energy_amount: z.number().int(),
  bonus_energy: z.number().int(),
  total_energy: z.number().int(),
});
export type BundleOffer = z.infer<typeof bundleOfferSchema>;
