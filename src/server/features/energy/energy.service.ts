import type { Db, Queryable, Tx } from '../../db/db.js';
import { AppError } from '../../http/errors.js';
import { decodeOptionalCursor, pageOf, seqKey } from '../../http/cursor.js';
import type { Page } from '../../../shared/page.schema.js';
import type { EnergyTransaction } from '../../../shared/energy.schema.js';
import { insufficientEnergyMessage } from '../../../shared/messages.js';
import * as repo from './energy.repo.js';

export interface SpendRequest {
  userId: string;
  cost: number;
  /** The tool's display name, for the insufficient-balance message. */
  toolName: string;
  description: string;
  jobId?: string;
  /** The admin_tool_pricing.tool_name paid for, recorded on the ledger row. */
  tool?: string;
}

export interface PurchaseRequest {
  userId: string;
  energy: number;
  /** Unique per payment (the checkout session id): credited once. */
  paymentId: string;
  stripePaymentIntentId?: string | null;
  amountPaidCents?: number | null;
  description: string;
}

/** Fired after a balance changes (for realtime updates); never inside the transaction. */
export type BalanceListener = (userId: string) => void;

/**
 * The one door to ENERGY balances. Every change writes the balance and a
 * ledger row in one transaction, so balance == SUM(ledger) always holds.
 * Methods take an optional transaction so a caller can make a debit part of
 * a larger unit (a tool run: debit + job + enqueue).
 */
export class EnergyService {
  private listeners: BalanceListener[] = [];

  constructor(private readonly db: Db) {}

  onBalanceChange(listener: BalanceListener): void {
    this.listeners.push(listener);
  }

  /**
   * The current balance. Inside a transaction it stays locked until commit,
   * so several spends checked against it together cannot be overtaken.
   */
  balance(userId: string, tx?: Tx): Promise<number> {
    return repo.readBalance(tx ?? this.db, userId, !!tx);
  }

  /** Conditional debit + ledger row. Throws 402 with the spec's message when short. */
  async spend(req: SpendRequest, tx?: Tx): Promise<number> {
    assertWholeNonNegative(req.cost);
    // One statement (debit + ledger row): atomic on its own, one round trip.
    const balance = await repo.spendEnergy(tx ?? this.db, {
      userId: req.userId,
      cost: req.cost,
      description: req.description,
      jobId: req.jobId,
      toolName: req.tool,
    });
    if (balance === undefined) {
      throw new AppError('insufficient_energy', insufficientEnergyMessage(req.cost, req.toolName));
    }
    this.changed(req.userId, tx);
    return balance;
  }

  /**
   * Gives back what a job was charged, at most once per job. Returns false
   * when there was nothing to refund or it was refunded already.
   */
  async refund(jobId: string, description: string, tx?: Tx): Promise<boolean> {
    const run = async (q: Queryable) => {
      const spent = await repo.findJobSpend(q, jobId);
      if (!spent) return null;
      const claimed = await repo.claimTransaction(q, {
        userId: spent.user_id,
        type: 'refund',
        description,
        amount: -spent.amount,
        jobId,
      });
      if (!claimed) return null;
      if (claimed.amount > 0) await repo.credit(q, spent.user_id, claimed.amount, false);
      return spent.user_id;
    };
    const userId = tx ? await run(tx) : await this.db.transaction(run);
    if (userId) this.changed(userId, tx);
    return userId !== null;
  }

  /** Credits a paid bundle exactly once per paymentId. Returns false for a duplicate. */
  async purchase(req: PurchaseRequest, tx?: Tx): Promise<boolean> {
    assertWholeNonNegative(req.energy);
    const run = async (q: Queryable) => {
      const claimed = await repo.claimTransaction(q, {
        userId: req.userId,
        type: 'purchase',
        description: req.description,
        amount: req.energy,
        paymentId: req.paymentId,
        stripePaymentIntentId: req.stripePaymentIntentId,
        amountPaidCents: req.amountPaidCents,
      });
      if (!claimed) return false;
      await repo.credit(q, req.userId, req.energy, true);
      return true;
    };
    const credited = tx ? await run(tx) : await this.db.transaction(run);
    if (credited) this.changed(req.userId, tx);
    return credited;
  }

  /** Operator / admin gift: raises the balance, not total purchased. Returns the new balance. */
  async grant(userId: string, amount: number, description: string, tx?: Tx): Promise<number> {
    assertWholeNonNegative(amount);
    const run = async (q: Queryable) => {
      const balance = await repo.credit(q, userId, amount, false);
      await repo.insertTransaction(q, { userId, type: 'grant', description, amount });
      return balance;
    };
    const balance = tx ? await run(tx) : await this.db.transaction(run);
    this.changed(userId, tx);
    return balance;
  }

  /** Newest first; cursor pages backwards through older entries. */
  async listTransactions(userId: string, limit = 10, cursor?: string | null): Promise<Page<EnergyTransaction>> {
    const size = Math.min(Math.max(Math.trunc(limit) || 10, 1), 100);
    const before = decodeOptionalCursor(cursor, seqKey)?.[0];
    const page = pageOf(await repo.listTransactions(this.db, userId, size + 1, before), size, (row) => [Number(row.seq)]);
    return {
      items: page.rows.map((row) => ({ ...row, seq: Number(row.seq), created_at: new Date(row.created_at).toISOString() })),
      next_cursor: page.next_cursor,
    };
  }

  /** Listeners hear of a change once it is committed: at once, or when the caller's transaction commits. */
  private changed(userId: string, tx?: Tx): void {
    if (tx) tx.afterCommit(() => this.emit(userId));
    else this.emit(userId);
  }

  private emit(userId: string): void {
    for (const l of this.listeners) l(userId);
  }
}

function assertWholeNonNegative(n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new AppError('validation', 'ENERGY amounts are whole numbers of at least 0');
}
