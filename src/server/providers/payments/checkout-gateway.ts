/**
 * The card processor as the payments service sees it: create a hosted
 * checkout, read a session back, verify a webhook. Real Stripe, or the
 * built-in test checkout that speaks the same events.
 */
export interface CreateCheckoutInput {
  priceId: string;
  userId: string;
  bundleId: string;
  planName: string;
  energy: number;
  amountCents: number;
  /** Must contain {CHECKOUT_SESSION_ID}. */
  successUrl: string;
  cancelUrl: string;
}

export interface GatewaySession {
  id: string;
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  clientReferenceId: string | null;
  paymentIntentId: string | null;
  amountTotal: number | null;
}

export interface WebhookEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

/** What we need to know about a Stripe Price to sell a bundle under it. */
export interface CatalogPrice {
  id: string;
  active: boolean;
  currency: string;
  unitAmount: number | null;
  /** 'one_time' or 'recurring'. */
  type: string;
  lookupKey: string | null;
}

/** Read access to the card processor's price list. */
export interface PriceCatalog {
  /** The price, or null when the processor does not know the id. */
  retrievePrice(id: string): Promise<CatalogPrice | null>;
  /** Prices carrying any of these lookup keys (at most 10 keys). */
  pricesByLookupKey(keys: readonly string[]): Promise<CatalogPrice[]>;
}

export interface CheckoutGateway {
  readonly kind: 'stripe' | 'test';
  /** The processor's prices, where it has its own (Stripe); the test checkout sells at the bundle's price. */
  readonly prices?: PriceCatalog;
  createSession(input: CreateCheckoutInput): Promise<{ id: string; url: string }>;
  retrieveSession(id: string): Promise<GatewaySession>;
  /** Verifies the signature over the raw body; throws when it does not hold. */
  constructEvent(rawBody: Buffer | string, signature: string): WebhookEvent;
  /** Refunds part or all of a payment at the processor; answers the charge as it stands after (Stripe's shape). */
  refund?(paymentIntentId: string, amountCents: number): Promise<Record<string, unknown>>;
  /** Signs an event of its own: only the built-in test checkout can, since it is the processor. */
  signEvent?(type: string, object: Record<string, unknown>): { payload: string; signature: string };
}
