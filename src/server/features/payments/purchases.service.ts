import { containsPattern } from '../../db/like.js';
import type { Db } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import { decodeOptionalCursor, pageOf } from '../../core/cursor.js';
import { z } from 'zod';
import type { EnergyService } from '../energy/energy.service.js';
import type { Page } from '../../../shared/page.schema.js';
import type { AdminPurchase, AdminPurchaseDetail, Purchase } from '../../../shared/purchases.schema.js';
import { refundMessages } from '../../../shared/payments.messages.js';
import * as repo from './purchases.repo.js';
import * as payments from './payments.repo.js';

/** Purchases are listed by when they were credited (microseconds), then id. */
const purchaseKey = z.tuple([z.string().regex(/^\d{1,19}$/), z.string().min(1).max(255)]);

/** The address of our own printable receipt for a purchase. */
export const receiptPath = (id: string) => `/api/purchases/${encodeURIComponent(id)}/receipt`;

/** What a buyer and an admin can see of purchases: history, receipts, the admin's detail. */
export class PurchasesService {
  constructor(
    private readonly db: Db,
    private readonly energy: EnergyService,
  ) {}

  async listOfUser(userId: string, limit: number, cursor?: string): Promise<Page<Purchase>> {
    const rows = await repo.listOfUser(this.db, userId, limit + 1, decodeOptionalCursor(cursor, purchaseKey));
    const page = pageOf(rows, limit, (r) => [r.cursor_us, r.id]);
    return { items: page.rows.map(toPurchase), next_cursor: page.next_cursor };
  }

  /** One of the user's purchases, for the printable receipt. */
  async getOfUser(userId: string, id: string): Promise<repo.PurchaseRow> {
    const row = await repo.findOfUser(this.db, userId, id);
    if (!row) throw new AppError('not_found', refundMessages.notFound);
    return row;
  }

  async search(query: string, limit: number, cursor?: string): Promise<Page<AdminPurchase>> {
    const q = query.trim();
    const rows = await repo.search(this.db, q, containsPattern(q), limit + 1, decodeOptionalCursor(cursor, purchaseKey));
    const page = pageOf(rows, limit, (r) => [r.cursor_us, r.id]);
    return { items: page.rows.map(toAdminPurchase), next_cursor: page.next_cursor };
  }

  async detail(id: string): Promise<AdminPurchaseDetail> {
    const row = await repo.find(this.db, id);
    if (!row) throw new AppError('not_found', refundMessages.notFound);
    const [entries, disputes, owed] = await Promise.all([
      this.energy.paymentEntries(row.id),
      row.payment_intent_id ? payments.disputesOf(this.db, row.payment_intent_id) : Promise.resolve([]),
      this.energy.owed(row.user_id),
    ]);
    return {
      ...toAdminPurchase(row),
      refundable_cents: Math.max(0, row.amount_cents - row.refunded_cents),
      energy_owed_by_user: owed,
      entries: entries.map((e) => ({ created_at: iso(e.created_at), type: e.type, description: e.description, amount: e.amount, owed_change: e.owed_change })),
      disputes: disputes.map((d) => ({ id: d.id, status: d.status, amount_cents: d.amount, reason: d.reason, created_at: iso(d.created_at) })),
    };
  }
}

const iso = (d: Date) => new Date(d).toISOString();

function statusOf(row: repo.PurchaseRow): Purchase['status'] {
  if (row.disputed) return 'disputed';
  return row.refunded_cents > 0 ? 'refunded' : 'paid';
}

function toPurchase(row: repo.PurchaseRow): Purchase {
  return {
    id: row.id,
    created_at: iso(row.bought_at),
    bundle_id: row.bundle_id,
    plan_name: row.plan_name,
    amount_cents: row.amount_cents,
    currency: row.currency,
    energy: row.energy,
    status: statusOf(row),
    refunded_cents: row.refunded_cents,
    energy_taken_back: row.energy_taken_back,
    receipt_url: row.receipt_url ?? receiptPath(row.id),
  };
}

function toAdminPurchase(row: repo.PurchaseRow): AdminPurchase {
  return { ...toPurchase(row), user_id: row.user_id, user_email: row.user_email, provider: row.provider, payment_intent_id: row.payment_intent_id };
}
