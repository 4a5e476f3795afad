import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';

/** A credited purchase with what happened to it since (refunds, disputes, ENERGY taken back). */
export interface PurchaseRow {
  id: string;
  user_id: string;
  user_email: string;
  provider: 'stripe' | 'test';
  bundle_id: string;
  plan_name: string;
  energy: number;
  amount_cents: number;
  currency: string;
  payment_intent_id: string | null;
  bought_at: Date;
  /** Microseconds since the epoch, as text: the paging key with the id. */
  cursor_us: string;
  refunded_cents: number;
  receipt_url: string | null;
  disputed: boolean;
  energy_taken_back: number;
}

const SELECT = `
  SELECT c.id, c.user_id, u.email AS user_email, c.provider, c.bundle_id, c.plan_name, c.energy,
         COALESCE(ch.amount, c.amount_cents) AS amount_cents, COALESCE(ch.currency, c.currency) AS currency,
         c.payment_intent_id, COALESCE(c.fulfilled_at, c.created_at) AS bought_at,
         (EXTRACT(EPOCH FROM COALESCE(c.fulfilled_at, c.created_at)) * 1000000)::bigint::text AS cursor_us,
         COALESCE(ch.amount_refunded, 0) AS refunded_cents, ch.receipt_url,
         EXISTS (SELECT 1 FROM payment_disputes d WHERE d.payment_intent_id = c.payment_intent_id
                  AND d.status IN ('needs_response', 'under_review', 'lost')) AS disputed,
         COALESCE((SELECT SUM(t.owed_change - t.amount) FROM energy_transactions t
                    WHERE t.payment_id = c.id AND t.type IN ('reversal', 'restore')), 0)::int AS energy_taken_back
    FROM checkout_sessions c
    JOIN users u ON u.id = c.user_id
    LEFT JOIN payment_charges ch ON ch.payment_intent_id = c.payment_intent_id
   WHERE c.status = 'fulfilled'`;

const ORDER = `ORDER BY COALESCE(c.fulfilled_at, c.created_at) DESC, c.id DESC`;
const AFTER = `($A::text IS NULL OR (COALESCE(c.fulfilled_at, c.created_at), c.id) < (to_timestamp($A::bigint / 1000000.0), $B::text))`;

function after(sql: string, first: number): string {
  return sql.replaceAll('$A', `$${first}`).replaceAll('$B', `$${first + 1}`);
}

/** The user's purchases, newest first. */
export function listOfUser(db: Queryable, userId: string, limit: number, cursor?: readonly [string, string]) {
  return db.query<PurchaseRow>(`${SELECT} AND c.user_id = $1 AND ${after(AFTER, 2)} ${ORDER} LIMIT $4`, [userId, cursor?.[0] ?? null, cursor?.[1] ?? null, limit]);
}

export function findOfUser(db: Queryable, userId: string, id: string) {
  return one<PurchaseRow>(db, `${SELECT} AND c.user_id = $1 AND c.id = $2`, [userId, id]);
}

/** Every purchase, newest first; the query matches the buyer's e-mail (contains) or a checkout or payment id (exactly). */
export function search(db: Queryable, query: string, likePattern: string, limit: number, cursor?: readonly [string, string]) {
  return db.query<PurchaseRow>(
    `${SELECT} AND ($1 = '' OR u.email ILIKE $2 OR c.id = $1 OR c.payment_intent_id = $1) AND ${after(AFTER, 3)} ${ORDER} LIMIT $5`,
    [query, likePattern, cursor?.[0] ?? null, cursor?.[1] ?? null, limit],
  );
}

export function find(db: Queryable, id: string) {
  return one<PurchaseRow>(db, `${SELECT} AND c.id = $1`, [id]);
}
