import { createHmac, randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';
import type { CheckoutGateway, CreateCheckoutInput, GatewaySession, WebhookEvent } from './checkout-gateway.js';
import { WEBHOOK_TOLERANCE_SECONDS } from './stripe-gateway.js';

/**
 * The built-in test checkout: a checkout page on our own origin that
 * behaves like Stripe's. Its "payment" is recorded on our checkout_sessions
 * row and announced by a Stripe-format event signed with a secret derived
 * from APP_SECRET, so fulfilment runs the very same verified path.
 */
export class TestCheckoutGateway implements CheckoutGateway {
  readonly kind = 'test' as const;
  // The SDK is used offline only, for signing and verifying events.
  private readonly stripe = new Stripe('sk_test_builtin_checkout');
  readonly webhookSecret: string;

  constructor(
    private readonly db: Queryable,
    appSecret: string,
  ) {
    this.webhookSecret = `whsec_${createHmac('sha256', appSecret).update('test-checkout-webhook').digest('base64url')}`;
  }

  async createSession(input: CreateCheckoutInput) {
    const id = `cs_test_local_${randomBytes(18).toString('base64url')}`;
    const origin = new URL(input.successUrl).origin;
    return { id, url: `${origin}/checkout/test/${id}` };
  }

  async retrieveSession(id: string): Promise<GatewaySession> {
    const row = await one<{ id: string; user_id: string; status: string; payment_intent_id: string | null; amount_cents: number }>(
      this.db,
      'SELECT id, user_id, status, payment_intent_id, amount_cents FROM checkout_sessions WHERE id = $1',
      [id],
    );
    if (!row) throw new Error(`No such checkout session: ${id}`);
    const paid = row.status === 'paid' || row.status === 'fulfilled';
    return {
      id: row.id,
      paymentStatus: paid ? 'paid' : 'unpaid',
      clientReferenceId: row.user_id,
      paymentIntentId: row.payment_intent_id,
      amountTotal: row.amount_cents,
    };
  }

  constructEvent(rawBody: Buffer | string, signature: string): WebhookEvent {
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret, WEBHOOK_TOLERANCE_SECONDS) as unknown as WebhookEvent;
  }

  /** A signed Stripe-format event, as Stripe would deliver it. */
  signEvent(type: string, object: Record<string, unknown>): { payload: string; signature: string } {
    const payload = JSON.stringify({
      id: `evt_test_local_${randomBytes(12).toString('base64url')}`,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      data: { object },
    });
    const signature = this.stripe.webhooks.generateTestHeaderString({ payload, secret: this.webhookSecret });
    return { payload, signature };
  }
}

/** Stripe's documented test cards: 4242... pays, 4000 0000 0000 0002 is declined. */
export function testCardOutcome(cardNumber: string): 'paid' | 'declined' | 'invalid' {
  const digits = cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{16}$/.test(digits)) return 'invalid';
  if (digits === '4000000000000002' || digits === '4000000000009995') return 'declined';
  return luhnValid(digits) ? 'paid' : 'invalid';
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
