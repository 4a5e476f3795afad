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

export interface CheckoutGateway {
  readonly kind: 'stripe' | 'test';
  createSession(input: CreateCheckoutInput): Promise<{ id: string; url: string }>;
  retrieveSession(id: string): Promise<GatewaySession>;
  /** Verifies the signature over the raw body; throws when it does not hold. */
  constructEvent(rawBody: Buffer | string, signature: string): WebhookEvent;
}
