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
