import { z } from 'zod';

/** POST /api/admin/purchases/:id/refund: a whole refund without an amount, else that many cents. */
export const refundBody = z.object({
  amount_cents: z.number().int().min(1).max(100_000_000).optional(),
  reason: z.string().max(500).optional(),
});

export const refundResultSchema = z.object({
  purchase_id: z.string(),
  refunded_cents: z.number().int(),
});
export type RefundResult = z.infer<typeof refundResultSchema>;

/** paid; refunded (whole or in part: see refunded_cents); disputed (a dispute is open or was lost). */
export const PURCHASE_STATUSES = ['paid', 'refunded', 'disputed'] as const;

/** A row of GET /api/purchases (Account > Purchases) and of the admin list. */
export const purchaseSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  bundle_id: z.string(),
  plan_name: z.string(),
  amount_cents: z.number().int(),
  currency: z.string(),
  energy: z.number().int(),
  status: z.enum(PURCHASE_STATUSES),
  refunded_cents: z.number().int(),
  /** ENERGY taken back so far (refunds and disputes, net of disputes won). */
  energy_taken_back: z.number().int(),
  /** Stripe's receipt when Stripe sent one, else our own printable receipt page. */
  receipt_url: z.string(),
});
export type Purchase = z.infer<typeof purchaseSchema>;

/** A row of GET /api/admin/purchases: the purchase and its buyer. */
export const adminPurchaseSchema = purchaseSchema.extend({
  user_id: z.string(),
  user_email: z.string(),
  provider: z.enum(['stripe', 'test']),
  payment_intent_id: z.string().nullable(),
});
export type AdminPurchase = z.infer<typeof adminPurchaseSchema>;

/** GET /api/admin/purchases/:id: the purchase, its ledger entries, its disputes, and what can still be refunded. */
export const adminPurchaseDetailSchema = adminPurchaseSchema.extend({
  refundable_cents: z.number().int(),
  energy_owed_by_user: z.number().int(),
  entries: z.array(
    z.object({
      created_at: z.string(),
      type: z.string(),
      description: z.string(),
      amount: z.number().int(),
      owed_change: z.number().int(),
    }),
  ),
  disputes: z.array(z.object({ id: z.string(), status: z.string(), amount_cents: z.number().int(), reason: z.string().nullable(), created_at: z.string() })),
});
export type AdminPurchaseDetail = z.infer<typeof adminPurchaseDetailSchema>;
