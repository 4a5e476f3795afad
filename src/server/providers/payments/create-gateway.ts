import type { Config } from '../../config.js';
import type { Queryable } from '../../db/db.js';
import type { CheckoutGateway } from './checkout-gateway.js';
import { createStripeClient, StripeGateway } from './stripe-gateway.js';
import { TestCheckoutGateway } from './test-gateway.js';

/** Real Stripe with keys; the built-in test checkout without; none when disabled. */
export function createCheckoutGateway(config: Config, db: Queryable): CheckoutGateway | null {
  if (config.payments === 'stripe') {
    return new StripeGateway(createStripeClient(config.STRIPE_SECRET_KEY!, config.STRIPE_API_BASE), config.STRIPE_WEBHOOK_SECRET!);
  }
  if (config.payments === 'test') return new TestCheckoutGateway(db, config.APP_SECRET);
  return null;
}
