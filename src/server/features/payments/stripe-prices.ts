import type { Config } from '../../config.js';
import type { PriceCatalog } from '../../providers/payments/checkout-gateway.js';
import { BUNDLES, BUNDLE_CURRENCY, type Bundle } from '../../../shared/bundles.js';

/** How a bundle names its Stripe price: an id (`price_...`) or a lookup key. */
export type PriceRef = { kind: 'id'; value: string; setting: string } | { kind: 'lookup_key'; value: string; setting: string };

const SETTING: Record<Bundle['id'], 'STRIPE_PRICE_TRIAL' | 'STRIPE_PRICE_STARTER' | 'STRIPE_PRICE_PRO' | 'STRIPE_PRICE_POWER'> = {
  trial: 'STRIPE_PRICE_TRIAL',
  starter: 'STRIPE_PRICE_STARTER',
  pro: 'STRIPE_PRICE_PRO',
  power: 'STRIPE_PRICE_POWER',
};

/** The lookup key a bundle's price carries when no STRIPE_PRICE_* names it. */
export const defaultLookupKey = (bundle: Bundle) => `pixelrush_${bundle.id}`;

/**
 * STRIPE_PRICE_<BUNDLE> holds a price id (Stripe's ids start with `price_`)
 * or a lookup key; unset means the lookup key pixelrush_<bundle>. Lookup
 * keys let an operator replace a price in Stripe's dashboard without a deploy.
 */
export function priceRefOf(config: Config, bundle: Bundle): PriceRef {
  const setting = SETTING[bundle.id];
  const value = config[setting];
  if (!value) return { kind: 'lookup_key', value: defaultLookupKey(bundle), setting };
  return value.startsWith('price_') ? { kind: 'id', value, setting } : { kind: 'lookup_key', value, setting };
}

export const formatAmount = (cents: number | null, currency: string) =>
  cents === null ? `an unset amount in ${currency.toUpperCase()}` : `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

export class StripePriceError extends Error {
  constructor(readonly problems: string[]) {
    super(`Stripe prices do not match the bundles on sale; not starting:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'StripePriceError';
  }
}

/**
 * The Stripe price id each bundle is sold under, after checking each price
 * against the bundle shown to buyers: it must exist, be active, be a one-time
 * price, and charge exactly the shown amount in the shown currency. Any
 * mismatch throws one StripePriceError that lists every problem.
 */
export async function resolveBundlePrices(config: Config, catalog: PriceCatalog): Promise<Map<Bundle['id'], string>> {
  const refs = BUNDLES.map((b) => ({ bundle: b, ref: priceRefOf(config, b) }));
  const keys = refs.filter((r) => r.ref.kind === 'lookup_key').map((r) => r.ref.value);
  const byKey = new Map((keys.length ? await catalog.pricesByLookupKey(keys) : []).map((p) => [p.lookupKey, p]));
  const problems: string[] = [];
  const resolved = new Map<Bundle['id'], string>();
  for (const { bundle, ref } of refs) {
    const price = ref.kind === 'id' ? await catalog.retrievePrice(ref.value) : (byKey.get(ref.value) ?? null);
    const named = ref.kind === 'id' ? `price ${ref.value} (${ref.setting})` : `price with lookup key '${ref.value}'`;
    const shown = formatAmount(bundle.priceCents, BUNDLE_CURRENCY);
    if (!price) {
      problems.push(`${bundle.name} bundle: no Stripe ${named}; the bundle is shown at ${shown}`);
      continue;
    }
    const charged = formatAmount(price.unitAmount, price.currency);
    if (!price.active) problems.push(`${bundle.name} bundle: Stripe ${named} is inactive`);
    if (price.type !== 'one_time') problems.push(`${bundle.name} bundle: Stripe ${named} is ${price.type}; bundles are one-time payments`);
    if (price.unitAmount !== bundle.priceCents || price.currency.toLowerCase() !== BUNDLE_CURRENCY) {
      problems.push(`${bundle.name} bundle: Stripe ${named} charges ${charged}, but the bundle is shown at ${shown}`);
    }
    resolved.set(bundle.id, price.id);
  }
  if (problems.length) throw new StripePriceError(problems);
  return resolved;
}
