import type { Db, Queryable, Tx } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import { decodeOptionalCursor, pageOf, seqKey } from '../../core/cursor.js';
import type { Page } from '../../../shared/page.schema.js';
import type { EnergyTransaction } from '../../../shared/energy.schema.js';
import { insufficientEnergyMessage, owedMessages } from '../../../shared/energy.messages.js';
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

/** A purchase's ENERGY taken back or given back (decision 028), linked to it by its payment id. */
export interface PaymentAdjustment {
  userId: string;
  paymentId: string;
  amount: number;
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
      // While ENERGY is owed the balance is 0 (every credit pays the debt first): say why, and what to do.
      const owed = await repo.readOwed(tx ?? this.db, req.userId);
      if (owed > 0) throw new AppError('insufficient_energy', owedMessages.blocked(owed), { energy_owed: owed });
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
      if (claimed.amount > 0) {
        await repo.credit(q, spent.user_id, claimed.amount, false);
        await this.settle(q, spent.user_id);
      }
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
      await this.settle(q, req.userId);
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
      await repo.credit(q, userId, amount, false);
      await repo.insertTransaction(q, { userId, type: 'grant', description, amount });
      await this.settle(q, userId);
      return repo.readBalance(q, userId, false);
    };
    const balance = tx ? await run(tx) : await this.db.transaction(run);
    this.changed(userId, tx);
    return balance;
  }

  /** The welcome grant (decision 028): at most one per account, whoever calls twice. False when it had it already. */
  async welcome(userId: string, amount: number, tx: Tx): Promise<boolean> {
    assertWholeNonNegative(amount);
    const claimed = await repo.claimTransaction(tx, { userId, type: 'welcome', description: `Welcome grant: ${amount} ENERGY`, amount });
    if (!claimed) return false;
    await repo.credit(tx, userId, amount, false);
    await this.settle(tx, userId);
    this.changed(userId, tx);
    return true;
  }

  /**
   * Takes back ENERGY a purchase granted (a refund, a dispute). What the
   * balance cannot cover is recorded as owed on the same ledger entry; the
   * balance itself never goes below 0.
   */
  async reverse(req: PaymentAdjustment, tx: Tx): Promise<{ taken: number; owed: number }> {
    assertWholeNonNegative(req.amount);
    const result = await repo.takeBack(tx, req.userId, req.amount);
    const description = result.owed > 0 ? `${req.description} (${result.owed} already spent: owed)` : req.description;
    await repo.insertTransaction(tx, { userId: req.userId, type: 'reversal', description, amount: -result.taken, paymentId: req.paymentId, owedChange: result.owed });
    this.changed(req.userId, tx);
    return result;
  }

  /** Gives back ENERGY taken from a purchase (a dispute won): what is owed is forgiven first. */
  async restore(req: PaymentAdjustment, tx: Tx): Promise<{ credited: number; forgiven: number }> {
    assertWholeNonNegative(req.amount);
    const result = await repo.giveBack(tx, req.userId, req.amount);
    await repo.insertTransaction(tx, { userId: req.userId, type: 'restore', description: req.description, amount: result.credited, paymentId: req.paymentId, owedChange: -result.forgiven });
    this.changed(req.userId, tx);
    return result;
  }

  /** Net ENERGY taken back from one purchase so far. */
  reversedOf(paymentId: string, q: Queryable = this.db): Promise<number> {
    return repo.reversedOfPayment(q, paymentId);
  }

  /** What the user owes (0 almost always). */
  owed(userId: string): Promise<number> {
    return repo.readOwed(this.db, userId);
  }

  /** A purchase's own ledger entries, oldest first. */
  paymentEntries(paymentId: string): Promise<repo.TransactionRow[]> {
    return repo.paymentEntries(this.db, paymentId);
  }

  /** After any credit: what is owed is paid from the new balance first, with its own ledger entry. */
  private async settle(q: Queryable, userId: string): Promise<void> {
    const paid = await repo.settleOwed(q, userId);
    if (paid > 0) {
      await repo.insertTransaction(q, { userId, type: 'settlement', description: owedMessages.settled(paid), amount: -paid, owedChange: -paid });
    }
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
