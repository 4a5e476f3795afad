import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';

export interface CheckoutRow {
  id: string;
  provider: 'stripe' | 'test';
  user_id: string;
  bundle_id: string;
  price_id: string;
  plan_name: string;
  energy: number;
  amount_cents: number;
  currency: string;
  status: 'open' | 'processing' | 'paid' | 'fulfilled' | 'failed' | 'canceled';
  payment_intent_id: string | null;
  success_url: string;
  cancel_url: string;
  failure_reason: string | null;
  created_at: Date;
  fulfilled_at: Date | null;
}

export function insertCheckout(
  db: Queryable,
  c: Pick<CheckoutRow, 'id' | 'provider' | 'user_id' | 'bundle_id' | 'price_id' | 'plan_name' | 'energy' | 'amount_cents' | 'success_url' | 'cancel_url'>,
) {
  return db.query(
    `INSERT INTO checkout_sessions (id, provider, user_id, bundle_id, price_id, plan_name, energy, amount_cents, success_url, cancel_url)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [c.id, c.provider, c.user_id, c.bundle_id, c.price_id, c.plan_name, c.energy, c.amount_cents, c.success_url, c.cancel_url],
  );
}

export function findCheckout(db: Queryable, id: string) {
  return one<CheckoutRow>(db, 'SELECT * FROM checkout_sessions WHERE id = $1', [id]);
}

export function findCheckoutOfUser(db: Queryable, userId: string, id: string) {
  return one<CheckoutRow>(db, 'SELECT * FROM checkout_sessions WHERE id = $1 AND user_id = $2', [id, userId]);
}

export function markFulfilled(db: Queryable, id: string, paymentIntentId: string | null) {
  return db.query(
    `UPDATE checkout_sessions
        SET status = 'fulfilled', payment_intent_id = COALESCE($2, payment_intent_id),
            fulfilled_at = COALESCE(fulfilled_at, now()), updated_at = now()
      WHERE id = $1`,
    [id, paymentIntentId],
  );
}

/** The test checkout's "card charged": only an open session can be paid. */
export function markPaid(db: Queryable, userId: string, id: string, paymentIntentId: string) {
  return one<CheckoutRow>(
    db,
    `UPDATE checkout_sessions SET status = 'paid', payment_intent_id = $3, updated_at = now()
      WHERE id = $1 AND user_id = $2 AND status = 'open' AND provider = 'test'
      RETURNING *`,
    [id, userId, paymentIntentId],
  );
}

export function markFailed(db: Queryable, id: string, reason: string) {
  return db.query(
    `UPDATE checkout_sessions SET status = 'failed', failure_reason = $2, updated_at = now()
      WHERE id = $1 AND status IN ('open', 'processing')`,
    [id, reason],
  );
}

export function markCanceled(db: Queryable, userId: string, id: string) {
  return one<CheckoutRow>(
    db,
    `UPDATE checkout_sessions SET status = 'canceled', updated_at = now()
      WHERE id = $1 AND user_id = $2 AND status = 'open'
      RETURNING *`,
    [id, userId],
  );
}

export async function recordEvent(db: Queryable, e: { id: string; type: string; sessionId: string | null }): Promise<boolean> {
  const rows = await db.query(
    'INSERT INTO payment_events (id, type, session_id) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id',
    [e.id, e.type, e.sessionId],
  );
  return rows.length > 0;
}

export function upsertSubscription(
  db: Queryable,
  s: { id: string; userId: string; priceId: string; status: string; currentPeriodEnd: Date | null },
) {
  return db.query(
    `INSERT INTO subscriptions (stripe_subscription_id, user_id, price_id, subscription_status, current_period_end)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (stripe_subscription_id) DO UPDATE
       SET price_id = EXCLUDED.price_id, subscription_status = EXCLUDED.subscription_status,
           current_period_end = EXCLUDED.current_period_end, updated_at = now()`,
    [s.id, s.userId, s.priceId, s.status, s.currentPeriodEnd],
  );
}

/** requirements §3 subscriptions view: one row, the user's most recent subscription. */
export function findSubscription(db: Queryable, userId: string) {
  return one<{ price_id: string; subscription_status: string }>(
    db,
    `SELECT price_id, subscription_status FROM subscriptions WHERE user_id = $1
      ORDER BY (subscription_status = 'active') DESC, updated_at DESC LIMIT 1`,
    [userId],
  );
}

export function userExists(db: Queryable, userId: string) {
  return one<{ id: string }>(db, 'SELECT id FROM users WHERE id = $1', [userId]);
}

/** A charge as the processor last described it; amounts only grow (a late or repeated event changes nothing). */
export interface ChargeState {
  paymentIntentId: string;
  chargeId: string | null;
  amount: number;
  amountRefunded: number;
  currency: string;
  receiptUrl: string | null;
}

export function upsertCharge(db: Queryable, c: ChargeState) {
  return db.query(
    `INSERT INTO payment_charges (payment_intent_id, charge_id, amount, amount_refunded, currency, receipt_url)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (payment_intent_id) DO UPDATE
       SET charge_id = COALESCE(EXCLUDED.charge_id, payment_charges.charge_id),
           amount = GREATEST(payment_charges.amount, EXCLUDED.amount),
           amount_refunded = GREATEST(payment_charges.amount_refunded, EXCLUDED.amount_refunded),
           receipt_url = COALESCE(EXCLUDED.receipt_url, payment_charges.receipt_url),
           updated_at = now()`,
    [c.paymentIntentId, c.chargeId, c.amount, c.amountRefunded, c.currency, c.receiptUrl],
  );
}

export interface ChargeRow {
  payment_intent_id: string;
  charge_id: string | null;
  amount: number;
  amount_refunded: number;
  currency: string;
  receipt_url: string | null;
}

export function findCharge(db: Queryable, paymentIntentId: string) {
  return one<ChargeRow>(db, 'SELECT * FROM payment_charges WHERE payment_intent_id = $1', [paymentIntentId]);
}

export function findChargeById(db: Queryable, chargeId: string) {
  return one<ChargeRow>(db, 'SELECT * FROM payment_charges WHERE charge_id = $1', [chargeId]);
}

/** Dispute statuses that end it: never replaced by an earlier one arriving late. */
const FINAL_DISPUTE = ['won', 'lost', 'warning_closed', 'prevented'];

export function upsertDispute(
  db: Queryable,
  d: { id: string; paymentIntentId: string; chargeId: string | null; amount: number; currency: string; reason: string | null; status: string },
) {
  return db.query(
    `INSERT INTO payment_disputes (id, payment_intent_id, charge_id, amount, currency, reason, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (id) DO UPDATE
       SET status = CASE WHEN payment_disputes.status = ANY($8::text[]) THEN payment_disputes.status ELSE EXCLUDED.status END,
           amount = EXCLUDED.amount, reason = COALESCE(EXCLUDED.reason, payment_disputes.reason), updated_at = now()`,
    [d.id, d.paymentIntentId, d.chargeId, d.amount, d.currency, d.reason, d.status, FINAL_DISPUTE],
  );
}

export interface DisputeRow {
  id: string;
  payment_intent_id: string;
  amount: number;
  currency: string;
  reason: string | null;
  status: string;
  created_at: Date;
}

export function disputesOf(db: Queryable, paymentIntentId: string) {
  return db.query<DisputeRow>('SELECT * FROM payment_disputes WHERE payment_intent_id = $1 ORDER BY created_at, id', [paymentIntentId]);
}

/** The credited purchase of a payment intent, row-locked until the transaction ends. */
export function lockPurchaseByIntent(db: Queryable, paymentIntentId: string) {
  return one<CheckoutRow>(db, `SELECT * FROM checkout_sessions WHERE payment_intent_id = $1 AND status = 'fulfilled' FOR UPDATE`, [paymentIntentId]);
}
