import { randomBytes } from 'node:crypto';
import type { Db, Tx } from '../../db/db.js';
import type { Config } from '../../config.js';
import { AppError } from '../../core/errors.js';
import type { EnergyService } from '../energy/energy.service.js';
import type { PricingService } from '../pricing/pricing.service.js';
import type { CheckoutGateway, WebhookEvent } from '../../providers/payments/checkout-gateway.js';
import { testCardOutcome } from '../../providers/payments/test-gateway.js';
import { BUNDLES, type Bundle } from '../../../shared/bundles.js';
import { purchaseMessages, refundMessages } from '../../../shared/payments.messages.js';
import type { CheckoutSessionStatus, CheckoutStatus, Subscription } from '../../../shared/payments.schema.js';
import * as repo from './payments.repo.js';
import { resolveBundlePrices, StripePriceError } from './stripe-prices.js';
import { DependencyError, reasonOf } from '../../lifecycle/dependency-checks.js';

export interface CheckoutRequest {
  price_id?: unknown;
  mode?: unknown;
  success_url?: unknown;
  cancel_url?: unknown;
}

export interface FulfilmentResult {
  status: CheckoutStatus;
  /** True only for the one call that actually raised the balance. */
  credited: boolean;
}

export interface TestCheckoutCard {
  card_number?: string;
  expiry?: string;
  cvc?: string;
  name?: string;
}

const PAID = new Set(['paid', 'no_payment_required']);

/** Dispute statuses in which the bank holds the money (decision 028); inquiries, won and prevented hold none. */
const DISPUTE_HOLDS = new Set(['needs_response', 'under_review', 'lost']);

/** A Stripe reference that may come expanded: its id either way. */
function idOf(value: unknown): string | null {
  if (typeof value === 'string' && value) return value;
  if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') return (value as { id: string }).id;
  return null;
}

/**
 * Selling ENERGY. One fulfilCheckout(sessionId) is reached from the webhook
 * and from the success page; the ledger's UNIQUE payment id makes it credit
 * exactly once however often and in whatever order it is called.
 */
export class PaymentsService {
  /** Bundles by the price id checkout is asked for: ours on the test checkout, Stripe's once resolved. */
  private bundlesByPriceId: Map<string, Bundle> = new Map(BUNDLES.map((b) => [b.priceId, b]));
  private readonly allowedOrigins: Set<string>;

  constructor(
    private readonly db: Db,
    private readonly energy: EnergyService,
    private readonly pricing: PricingService,
    private readonly gateway: CheckoutGateway | null,
    private readonly config: Config,
    private readonly log: { info: (o: unknown, m?: string) => void; warn: (o: unknown, m?: string) => void },
  ) {
    const origins = [new URL(config.publicUrl).origin];
    if (!config.isProduction) origins.push(`http://localhost:${config.PORT}`, `http://127.0.0.1:${config.PORT}`);
    this.allowedOrigins = new Set(origins);
  }

  /**
   * Run once before serving. Logs the test checkout warning where it applies,
   * and with Stripe resolves each bundle's price and checks it against the
   * bundle shown to buyers; a missing, inactive or different price throws
   * (StripePriceError), so the app does not start selling at the wrong price.
   */
  async prepare(): Promise<void> {
    if (this.config.testCheckoutWarning) this.log.warn({ payments: 'test' }, `WARNING: ${this.config.testCheckoutWarning}`);
    const catalog = this.gateway?.prices;
    if (!catalog) return;
    const resolved = await resolveBundlePrices(this.config, catalog).catch((err: unknown) => {
      if (err instanceof StripePriceError) throw err;
      // Unreachable, or a key Stripe refuses: one line that says which, not the SDK's stack.
      const host = this.config.STRIPE_API_BASE ? new URL(this.config.STRIPE_API_BASE).host : 'api.stripe.com';
      throw new DependencyError('payments', `cannot check the bundles' prices with Stripe at ${host}: ${reasonOf(err)}`);
    });
    this.bundlesByPriceId = new Map(BUNDLES.map((b) => [resolved.get(b.id)!, b]));
    this.log.info({ prices: Object.fromEntries(resolved) }, 'Stripe prices match the bundles');
  }

  get mode(): Config['payments'] {
    return this.gateway?.kind ?? 'disabled';
  }

  /** The Stripe price id each bundle is sold under. */
  priceIdOf(bundle: Bundle): string {
    for (const [priceId, b] of this.bundlesByPriceId) if (b.id === bundle.id) return priceId;
    return bundle.priceId;
  }

  async createCheckout(userId: string, body: CheckoutRequest): Promise<{ url: string; session_id: string }> {
    if (!this.gateway) throw new AppError('unavailable', purchaseMessages.unavailable);
    if (body.mode !== undefined && body.mode !== 'payment') throw new AppError('validation', purchaseMessages.badMode);
    const bundle = typeof body.price_id === 'string' ? this.bundlesByPriceId.get(body.price_id) : undefined;
    // The plan row carries what the admin set; an inactive plan is not for sale.
    const plan = bundle ? await this.pricing.findActivePlan(bundle.priceId) : undefined;
    if (!bundle || !plan) throw new AppError('validation', purchaseMessages.unknownBundle);
    const successUrl = this.ownUrl(body.success_url, '/success');
    const cancelUrl = this.ownUrl(body.cancel_url, '/dashboard');
    successUrl.searchParams.set('session_id', '{CHECKOUT_SESSION_ID}');

    const priceId = body.price_id as string;
    const energy = plan.energy_amount + plan.bonus_energy;
    const input = {
      priceId,
      userId,
      bundleId: bundle.id,
      planName: plan.plan_name,
      energy,
      amountCents: plan.price_cents,
      // URLSearchParams encodes the braces; Stripe needs them literal.
      successUrl: successUrl.toString().replace('%7BCHECKOUT_SESSION_ID%7D', '{CHECKOUT_SESSION_ID}'),
      cancelUrl: cancelUrl.toString(),
    };
    let session: { id: string; url: string };
    try {
      session = await this.gateway.createSession(input);
    } catch (err) {
      this.log.warn({ err, userId, priceId }, 'checkout session creation failed');
      throw new AppError('unavailable', purchaseMessages.createFailed);
    }
    await repo.insertCheckout(this.db, {
      id: session.id,
      provider: this.gateway.kind,
      user_id: userId,
      bundle_id: bundle.id,
      price_id: priceId,
      plan_name: plan.plan_name,
      energy,
      amount_cents: plan.price_cents,
      success_url: input.successUrl.replace('{CHECKOUT_SESSION_ID}', session.id),
      cancel_url: input.cancelUrl,
    });
    return { url: session.url, session_id: session.id };
  }

  /** Credits a paid checkout once; safe to call any number of times, concurrently. */
  async fulfillCheckout(sessionId: string): Promise<FulfilmentResult> {
    const row = await repo.findCheckout(this.db, sessionId);
    if (!row || !this.gateway) return { status: 'unknown', credited: false };
    if (row.status === 'fulfilled') return { status: 'fulfilled', credited: false };
    const session = await this.gateway.retrieveSession(sessionId);
    if (session.clientReferenceId && session.clientReferenceId !== row.user_id) {
      this.log.warn({ sessionId }, 'checkout session belongs to another user; not credited');
      return { status: 'failed', credited: false };
    }
    if (!PAID.has(session.paymentStatus)) {
      return { status: row.status === 'failed' ? 'failed' : row.status === 'canceled' ? 'canceled' : 'pending', credited: false };
    }
    const credited = await this.db.transaction(async (tx) => {
      const ok = await this.energy.purchase(
        {
          userId: row.user_id,
          energy: row.energy,
          paymentId: row.id,
          stripePaymentIntentId: session.paymentIntentId,
          amountPaidCents: session.amountTotal ?? row.amount_cents,
          description: `Purchased ${row.plan_name} bundle: ${row.energy} ENERGY`,
        },
        tx,
      );
      await repo.markFulfilled(tx, row.id, session.paymentIntentId);
      if (session.paymentIntentId) {
        await repo.upsertCharge(tx, {
          paymentIntentId: session.paymentIntentId,
          chargeId: null,
          amount: session.amountTotal ?? row.amount_cents,
          amountRefunded: 0,
          currency: row.currency,
          receiptUrl: null,
        });
        // A refund or dispute that arrived before the purchase was credited applies now.
        await this.reconcile(session.paymentIntentId, tx);
      }
      return ok;
    });
    if (credited) {
      this.log.info({ sessionId, userId: row.user_id, energy: row.energy }, 'checkout fulfilled');
    }
    return { status: 'fulfilled', credited };
  }

  /** Verifies and applies a webhook delivery. Unknown event types are accepted and ignored. */
  async handleWebhook(rawBody: Buffer | string, signature: string | undefined): Promise<{ received: true; type: string }> {
    if (!this.gateway || !signature) throw new AppError('validation', purchaseMessages.badSignature);
    let event: WebhookEvent;
    try {
      event = this.gateway.constructEvent(rawBody, signature);
    } catch {
      throw new AppError('validation', purchaseMessages.badSignature);
    }
    const object = event.data?.object ?? {};
    const objectId = typeof object.id === 'string' ? object.id : null;
    await repo.recordEvent(this.db, { id: event.id, type: event.type, sessionId: objectId });

    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        if (objectId) await this.fulfillCheckout(objectId);
        break;
      case 'checkout.session.async_payment_failed':
        if (objectId) await repo.markFailed(this.db, objectId, 'async payment failed');
        break;
      case 'charge.refunded':
        await this.applyCharge(object);
        break;
      case 'charge.dispute.created':
      case 'charge.dispute.updated':
      case 'charge.dispute.closed':
        await this.applyDispute(object);
        break;
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        await this.applySubscription(object, event.type.endsWith('deleted'));
        break;
      default:
        break;
    }
    return { received: true, type: event.type };
  }

  /** What the success page shows; also fulfils, in case the webhook is late. */
  async sessionStatus(userId: string, sessionId: string): Promise<CheckoutSessionStatus> {
    const row = await repo.findCheckoutOfUser(this.db, userId, sessionId);
    if (!row) throw new AppError('not_found', purchaseMessages.failed);
    const { status } = await this.fulfillCheckout(sessionId);
    return { status, plan_name: row.plan_name, energy_added: status === 'fulfilled' ? row.energy : 0, amount_cents: row.amount_cents };
  }

  async getSubscription(userId: string): Promise<Subscription | null> {
    const sub = await repo.findSubscription(this.db, userId);
    if (!sub) return null;
    const bundle = this.bundlesByPriceId.get(sub.price_id) ?? BUNDLES.find((b) => b.priceId === sub.price_id);
    return {
      price_id: sub.price_id,
      subscription_status: sub.subscription_status,
      plan_name: bundle?.name ?? null,
      is_active: sub.subscription_status === 'active',
    };
  }

  // ---- money after the sale (decision 028) ----

  /**
   * Refunds a purchase, whole (no amount) or in part, as an admin asked: at
   * Stripe when it sells, else as the test checkout's signed charge.refunded
   * event through the webhook handler. Either way the purchase's ENERGY is
   * brought in line by reconcile(). Returns what was refunded, in cents.
   */
  async refundPurchase(checkoutId: string, amountCents?: number): Promise<{ refunded_cents: number; payment_intent_id: string }> {
    const row = await repo.findCheckout(this.db, checkoutId);
    if (!row) throw new AppError('not_found', refundMessages.notFound);
    const intent = row.payment_intent_id;
    if (row.status !== 'fulfilled' || !intent) throw new AppError('conflict', refundMessages.notPaid);
    if (!this.gateway || this.gateway.kind !== row.provider) throw new AppError('conflict', refundMessages.otherProvider);
    const charge = await repo.findCharge(this.db, intent);
    const paid = charge?.amount ?? row.amount_cents;
    const remaining = paid - (charge?.amount_refunded ?? 0);
    if (remaining <= 0) throw new AppError('conflict', refundMessages.nothingLeft);
    const amount = amountCents ?? remaining;
    if (!Number.isInteger(amount) || amount < 1 || amount > remaining) throw new AppError('validation', refundMessages.badAmount(remaining));

    if (this.gateway.refund) {
      let refunded: Record<string, unknown>;
      try {
        refunded = await this.gateway.refund(intent, amount);
      } catch (err) {
        this.log.warn({ err, checkoutId }, 'refund failed at the processor');
        throw new AppError('unavailable', refundMessages.failed);
      }
      await this.applyCharge(refunded);
    } else {
      const signed = this.gateway.signEvent?.('charge.refunded', {
        id: charge?.charge_id ?? `ch_test_local_${randomBytes(12).toString('base64url')}`,
        object: 'charge',
        amount: paid,
        amount_captured: paid,
        amount_refunded: paid - remaining + amount,
        currency: charge?.currency ?? row.currency,
        paid: true,
        captured: true,
        refunded: amount === remaining,
        status: 'succeeded',
        payment_intent: intent,
        receipt_url: null,
        metadata: {},
      });
      if (!signed) throw new AppError('conflict', refundMessages.otherProvider);
      await this.handleWebhook(signed.payload, signed.signature);
    }
    return { refunded_cents: amount, payment_intent_id: intent };
  }

  /** A charge as Stripe describes it (charge.refunded, or the refund call's answer). */
  private async applyCharge(object: Record<string, unknown>): Promise<void> {
    const intent = idOf(object.payment_intent);
    if (!intent || typeof object.amount !== 'number') return;
    await repo.upsertCharge(this.db, {
      paymentIntentId: intent,
      chargeId: idOf(object.id),
      amount: object.amount,
      amountRefunded: typeof object.amount_refunded === 'number' ? object.amount_refunded : 0,
      currency: typeof object.currency === 'string' ? object.currency : 'usd',
      receiptUrl: typeof object.receipt_url === 'string' ? object.receipt_url : null,
    });
    await this.db.transaction((tx) => this.reconcile(intent, tx));
  }

  /** A dispute as Stripe describes it; its payment intent, or else its charge, finds the purchase. */
  private async applyDispute(object: Record<string, unknown>): Promise<void> {
    const id = idOf(object.id);
    const chargeId = idOf(object.charge);
    const intent = idOf(object.payment_intent) ?? (chargeId ? (await repo.findChargeById(this.db, chargeId))?.payment_intent_id : null);
    if (!id || !intent || typeof object.amount !== 'number' || typeof object.status !== 'string') {
      this.log.warn({ id }, 'dispute for an unknown payment; ignored');
      return;
    }
    await repo.upsertDispute(this.db, {
      id,
      paymentIntentId: intent,
      chargeId,
      amount: object.amount,
      currency: typeof object.currency === 'string' ? object.currency : 'usd',
      reason: typeof object.reason === 'string' ? object.reason : null,
      status: object.status,
    });
    await this.db.transaction((tx) => this.reconcile(intent, tx));
  }

  /**
   * Brings a credited purchase's ENERGY in line with its charge and disputes
   * (decision 028): what it should have lost, less what the ledger says it
   * has lost, is taken (a reversal) or given back (a restore). Under the
   * purchase row's lock, so concurrent calls apply it once.
   */
  private async reconcile(paymentIntentId: string, tx: Tx): Promise<void> {
    const row = await repo.lockPurchaseByIntent(tx, paymentIntentId);
    if (!row) return; // not credited yet: the credit reconciles
    const charge = await repo.findCharge(tx, paymentIntentId);
    const disputes = await repo.disputesOf(tx, paymentIntentId);
    const paid = charge?.amount || row.amount_cents;
    if (!paid) return;
    const share = (cents: number) => Math.floor((row.energy * Math.min(Math.max(cents, 0), paid)) / paid);
    const refunded = share(charge?.amount_refunded ?? 0);
    const held = disputes.filter((d) => DISPUTE_HOLDS.has(d.status)).reduce((n, d) => n + share(d.amount), 0);
    const target = Math.min(row.energy, refunded + held);
    const delta = target - (await this.energy.reversedOf(row.id, tx));
    const bundle = `${row.plan_name} bundle`;
    if (delta > 0) {
      const why = held > 0 ? 'Disputed' : 'Refunded';
      await this.energy.reverse({ userId: row.user_id, paymentId: row.id, amount: delta, description: `${why}: ${bundle}, ${delta} ENERGY taken back` }, tx);
      this.log.info({ paymentIntentId, userId: row.user_id, energy: delta }, 'purchase ENERGY taken back');
    } else if (delta < 0) {
      await this.energy.restore({ userId: row.user_id, paymentId: row.id, amount: -delta, description: `Dispute won: ${bundle}, ${-delta} ENERGY restored` }, tx);
      this.log.info({ paymentIntentId, userId: row.user_id, energy: -delta }, 'purchase ENERGY restored');
    }
  }

  // ---- the built-in test checkout ----

  async testCheckout(userId: string, sessionId: string): Promise<repo.CheckoutRow> {
    const row = await repo.findCheckoutOfUser(this.db, userId, sessionId);
    if (!row || row.provider !== 'test' || !this.gateway?.signEvent) {
      throw new AppError('not_found', purchaseMessages.failed);
    }
    return row;
  }

  /** Charges a test card; on success the signed event runs the webhook path. Returns where to go next. */
  async payTestCheckout(userId: string, sessionId: string, card: TestCheckoutCard): Promise<{ redirect: string } | { error: string }> {
    const row = await this.testCheckout(userId, sessionId);
    if (row.status === 'paid' || row.status === 'fulfilled') return { redirect: row.success_url };
    if (row.status !== 'open') return { error: 'This checkout is no longer open.' };
    const outcome = testCardOutcome(card.card_number ?? '');
    if (outcome === 'invalid') return { error: 'Your card number is invalid.' };
    if (!/^\s*(0[1-9]|1[0-2])\s*\/\s*\d{2}\s*$/.test(card.expiry ?? '')) return { error: 'Your card’s expiration date is invalid.' };
    if (!/^\d{3,4}$/.test((card.cvc ?? '').trim())) return { error: 'Your card’s security code is invalid.' };
    if (outcome === 'declined') return { error: 'Your card was declined.' };

    const paymentIntentId = `pi_test_local_${randomBytes(12).toString('base64url')}`;
    const paid = await repo.markPaid(this.db, userId, sessionId, paymentIntentId);
    if (!paid) return { redirect: row.success_url };
    const signed = this.gateway?.signEvent?.('checkout.session.completed', {
      id: sessionId,
      object: 'checkout.session',
      payment_status: 'paid',
      client_reference_id: userId,
      payment_intent: paymentIntentId,
      amount_total: row.amount_cents,
      metadata: { userId, priceId: row.price_id },
    });
    if (!signed) throw new AppError('not_found', purchaseMessages.failed);
    await this.handleWebhook(signed.payload, signed.signature);
    return { redirect: row.success_url };
  }

  async cancelTestCheckout(userId: string, sessionId: string): Promise<string> {
    const row = await this.testCheckout(userId, sessionId);
    await repo.markCanceled(this.db, userId, sessionId);
    return row.cancel_url;
  }

  private ownUrl(value: unknown, expectedPath: string): URL {
    let url: URL;
    try {
      url = new URL(String(value ?? ''));
    } catch {
      throw new AppError('validation', purchaseMessages.foreignRedirect);
    }
    if (!this.allowedOrigins.has(url.origin) || url.pathname !== expectedPath || url.username || url.password) {
      throw new AppError('validation', purchaseMessages.foreignRedirect);
    }
    url.hash = '';
    return url;
  }

  private async applySubscription(object: Record<string, unknown>, deleted: boolean): Promise<void> {
    const id = typeof object.id === 'string' ? object.id : undefined;
    const metadata = (object.metadata ?? {}) as Record<string, string>;
    const userId = metadata.userId;
    const items = (object.items as { data?: { price?: { id?: string }; current_period_end?: unknown }[] } | undefined)?.data ?? [];
    const priceId = items[0]?.price?.id;
    if (!id || !userId || !priceId || !(await repo.userExists(this.db, userId))) {
      this.log.warn({ id }, 'subscription event without a known user or price; ignored');
      return;
    }
    // The pinned API version keeps period ends on the items (they may differ per
    // item; the soonest is when the subscription next renews). Older versions
    // had one on the subscription itself.
    const itemEnds = items.map((i) => i.current_period_end).filter((n): n is number => typeof n === 'number');
    const endSeconds = itemEnds.length ? Math.min(...itemEnds) : typeof object.current_period_end === 'number' ? object.current_period_end : null;
    const end = endSeconds === null ? null : new Date(endSeconds * 1000);
    await repo.upsertSubscription(this.db, {
      id,
      userId,
      priceId,
      status: deleted ? 'canceled' : String(object.status ?? 'incomplete'),
      currentPeriodEnd: end,
    });
  }
}
