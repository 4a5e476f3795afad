import type { Db } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import type { AuthenticatedUser } from '../auth/auth.service.js';
import type { PaymentsService } from '../payments/payments.service.js';
import type { RefundResult } from '../../../shared/purchases.schema.js';
import { refundMessages } from '../../../shared/payments.messages.js';
import * as repo from './admin.repo.js';

/** Audit action name of a refund (admin_audit.action). */
export const REFUND_ACTION = 'refund_purchase';

/** Purchases as the admin sees them: refunds (through the payments service), audited. */
export class AdminPurchasesService {
  constructor(
    private readonly db: Db,
    private readonly payments: PaymentsService,
  ) {}

  /** Refunds at the processor (or the test checkout); the ENERGY follows through the same path as Stripe's own event. */
  async refund(admin: AuthenticatedUser, purchaseId: string, amountCents?: number, reason?: string): Promise<RefundResult> {
    if (admin.role !== 'admin') throw new AppError('forbidden', 'Admins only');
    if (purchaseId.length > 255) throw new AppError('not_found', refundMessages.notFound);
    const done = await this.payments.refundPurchase(purchaseId, amountCents);
    await repo.insertAudit(this.db, {
      adminId: admin.id,
      action: REFUND_ACTION,
      target: purchaseId,
      oldValue: null,
      newValue: { refunded_cents: done.refunded_cents, payment_intent_id: done.payment_intent_id, reason: reason?.trim() || null },
    });
    return { purchase_id: purchaseId, refunded_cents: done.refunded_cents };
  }
}
