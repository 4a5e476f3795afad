import Stripe from 'stripe';
import type { CheckoutGateway, CreateCheckoutInput, GatewaySession, WebhookEvent } from './checkout-gateway.js';

/** Stripe's default signature tolerance: events older than 5 minutes are refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export function createStripeClient(secretKey: string, apiBase?: string): Stripe {
  if (!apiBase) return new Stripe(secretKey, { maxNetworkRetries: 2 });
  const url = new URL(apiBase);
  return new Stripe(secretKey, {
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    protocol: url.protocol.replace(':', '') as 'http' | 'https',
    maxNetworkRetries: 0,
  });
}

export class StripeGateway implements CheckoutGateway {
  readonly kind = 'stripe' as const;

  constructor(
    private readonly stripe: Stripe,
    private readonly webhookSecret: string,
  ) {}

  async createSession(input: CreateCheckoutInput) {
    const session = await this.stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: input.priceId, quantity: 1 }],
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      client_reference_id: input.userId,
      metadata: { userId: input.userId, priceId: input.priceId, bundleId: input.bundleId, energy: String(input.energy) },
    });
    if (!session.url) throw new Error('Stripe returned no checkout URL');
    return { id: session.id, url: session.url };
  }

  async retrieveSession(id: string): Promise<GatewaySession> {
    const s = await this.stripe.checkout.sessions.retrieve(id);
    return {
      id: s.id,
      paymentStatus: s.payment_status as GatewaySession['paymentStatus'],
      clientReferenceId: s.client_reference_id,
      paymentIntentId: typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null),
      amountTotal: s.amount_total,
    };
  }

  constructEvent(rawBody: Buffer | string, signature: string): WebhookEvent {
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret, WEBHOOK_TOLERANCE_SECONDS) as unknown as WebhookEvent;
  }
}
