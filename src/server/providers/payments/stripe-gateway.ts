import Stripe from 'stripe';
import type { CatalogPrice, CheckoutGateway, CreateCheckoutInput, GatewaySession, PriceCatalog, WebhookEvent } from './checkout-gateway.js';

/** Stripe's default signature tolerance: events older than 5 minutes are refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The API version every request and webhook object is shaped by. Pinned so an
 * SDK upgrade or a dashboard change cannot move fields under us (subscription
 * period ends, for one, live on subscription items in this version).
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

export function createStripeClient(secretKey: string, apiBase?: string): Stripe {
  if (!apiBase) return new Stripe(secretKey, { apiVersion: STRIPE_API_VERSION, maxNetworkRetries: 2 });
  const url = new URL(apiBase);
  return new Stripe(secretKey, {
    apiVersion: STRIPE_API_VERSION,
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    protocol: url.protocol.replace(':', '') as 'http' | 'https',
    maxNetworkRetries: 0,
  });
}

function toCatalogPrice(p: Stripe.Price): CatalogPrice {
  return { id: p.id, active: p.active, currency: p.currency, unitAmount: p.unit_amount, type: p.type, lookupKey: p.lookup_key };
}

export class StripeGateway implements CheckoutGateway {
  readonly kind = 'stripe' as const;
  readonly prices: PriceCatalog;

  constructor(
    private readonly stripe: Stripe,
    private readonly webhookSecret: string,
  ) {
    this.prices = {
      retrievePrice: async (id) => {
        try {
          return toCatalogPrice(await stripe.prices.retrieve(id));
        } catch (err) {
          if ((err as { code?: string }).code === 'resource_missing') return null;
          throw err;
        }
      },
      pricesByLookupKey: async (keys) => {
        const list = await stripe.prices.list({ lookup_keys: [...keys], limit: 100 });
        return list.data.map(toCatalogPrice);
      },
    };
  }

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

  async refund(paymentIntentId: string, amountCents: number): Promise<Record<string, unknown>> {
    const refund = await this.stripe.refunds.create({ payment_intent: paymentIntentId, amount: amountCents });
    const chargeId = typeof refund.charge === 'string' ? refund.charge : refund.charge?.id;
    if (!chargeId) throw new Error('Stripe refund without a charge');
    return (await this.stripe.charges.retrieve(chargeId)) as unknown as Record<string, unknown>;
  }

  constructEvent(rawBody: Buffer | string, signature: string): WebhookEvent {
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret, WEBHOOK_TOLERANCE_SECONDS) as unknown as WebhookEvent;
  }
}
