import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';
import type { TransactionType } from '../../../shared/energy.schema.js';

export interface TransactionRow {
  id: string;
  user_id: string;
  created_at: Date;
  type: TransactionType;
  description: string;
  amount: number;
  job_id: string | null;
  payment_id: string | null;
  stripe_payment_intent_id: string | null;
  amount_paid_cents: number | null;
  /** admin_tool_pricing.tool_name a spend paid for (statistics). */
  tool_name: string | null;
  /** What this entry added to (+) or settled of (-) the ENERGY owed (decision 028). */
  owed_change: number;
  /** Insertion order: the paging key. */
  seq: number;
}

export interface NewSpend {
  userId: string;
  cost: number;
  description: string;
  jobId?: string | null;
  toolName?: string | null;
}

/**
 * A spend in ONE statement (the spend_energy function, migration 003): the
 * conditional debit and its ledger row, atomic even without an explicit
 * transaction, one round trip. undefined when the balance is short (nothing written).
 */
export async function spendEnergy(db: Queryable, s: NewSpend): Promise<number | undefined> {
  const row = await one<{ energy_balance: number | null }>(
    db,
    'SELECT spend_energy($1, $2, $3, $4, $5) AS energy_balance',
    [s.userId, s.cost, s.description, s.jobId ?? null, s.toolName ?? null],
  );
  return row?.energy_balance ?? undefined;
}

/** The balance, row-locked until the transaction ends when asked (a spend that must see it unchanged). */
export async function readBalance(db: Queryable, userId: string, lock: boolean): Promise<number> {
  const row = await one<{ energy_balance: number }>(
    db,
    `SELECT energy_balance FROM user_profiles WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [userId],
  );
  return row?.energy_balance ?? 0;
}

/**
 * The conditional debit: one statement, so concurrent spends can never
 * overdraw (a blocked UPDATE re-checks its WHERE under READ COMMITTED).
 */
export async function debit(db: Queryable, userId: string, amount: number): Promise<number | undefined> {
  const row = await one<{ energy_balance: number }>(
    db,
    `UPDATE user_profiles SET energy_balance = energy_balance - $2, updated_at = now()
      WHERE id = $1 AND energy_balance >= $2
      RETURNING energy_balance`,
    [userId, amount],
  );
  return row?.energy_balance;
}

export async function credit(db: Queryable, userId: string, amount: number, purchased: boolean): Promise<number> {
  const row = await one<{ energy_balance: number }>(
    db,
    `UPDATE user_profiles
        SET energy_balance = energy_balance + $2,
            total_energy_purchased = total_energy_purchased + CASE WHEN $3::boolean THEN $2 ELSE 0 END,
            updated_at = now()
      WHERE id = $1
      RETURNING energy_balance`,
    [userId, amount, purchased],
  );
  if (!row) throw new Error(`No profile for user ${userId}`);
  return row.energy_balance;
}

export interface NewTransaction {
  userId: string;
  type: TransactionType;
  description: string;
  amount: number;
  jobId?: string | null;
  paymentId?: string | null;
  stripePaymentIntentId?: string | null;
  amountPaidCents?: number | null;
  toolName?: string | null;
  owedChange?: number;
}

const INSERT_COLUMNS =
  '(user_id, type, description, amount, job_id, payment_id, stripe_payment_intent_id, amount_paid_cents, tool_name, owed_change)';

function insertParams(t: NewTransaction) {
  return [
    t.userId,
    t.type,
    t.description,
    t.amount,
    t.jobId ?? null,
    t.paymentId ?? null,
    t.stripePaymentIntentId ?? null,
    t.amountPaidCents ?? null,
    t.toolName ?? null,
    t.owedChange ?? 0,
  ];
}

export function insertTransaction(db: Queryable, t: NewTransaction) {
  return one<TransactionRow>(
    db,
    `INSERT INTO energy_transactions ${INSERT_COLUMNS} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
    insertParams(t),
  ) as Promise<TransactionRow>;
}

/**
 * Claims a unique ledger entry (a purchase per payment, a refund per job, a welcome grant per account);
 * undefined when it was already claimed. The caller moves the balance only
 * after a successful claim, in the same transaction, so a duplicate changes
 * nothing (a concurrent duplicate waits on the unique index, then yields).
 */
export function claimTransaction(db: Queryable, t: NewTransaction) {
  const conflict =
    t.type === 'purchase'
      ? "(payment_id) WHERE type = 'purchase'"
      : t.type === 'welcome'
        ? "(user_id) WHERE type = 'welcome'"
        : '(job_id, type) WHERE job_id IS NOT NULL';
  return one<TransactionRow>(
    db,
    `INSERT INTO energy_transactions ${INSERT_COLUMNS} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT ${conflict} DO NOTHING
     RETURNING *`,
    insertParams(t),
  );
}

export function findJobSpend(db: Queryable, jobId: string) {
  return one<TransactionRow>(db, `SELECT * FROM energy_transactions WHERE job_id = $1 AND type = 'spend'`, [jobId]);
}

export function listTransactions(db: Queryable, userId: string, limit: number, beforeSeq?: number) {
  // The key that ran a job (if any) is shown beside its charge and refund.
  return db.query<TransactionRow & { api_key_name: string | null; api_key_prefix: string | null }>(
    `SELECT t.*, k.name AS api_key_name, k.prefix AS api_key_prefix
       FROM energy_transactions t
       LEFT JOIN tool_jobs j ON j.id = t.job_id AND j.user_id = t.user_id
       LEFT JOIN api_keys k ON k.id = j.api_key_id
      WHERE t.user_id = $1 AND ($2::bigint IS NULL OR t.seq < $2)
      ORDER BY t.seq DESC LIMIT $3`,
    [userId, beforeSeq ?? null, limit],
  );
}


/**
 * Takes up to `amount` from the balance; what the balance cannot cover is
 * added to what the user owes. One statement on the locked profile row.
 */
export async function takeBack(db: Queryable, userId: string, amount: number): Promise<{ taken: number; owed: number }> {
  const taken = await drainThenAdd(db, userId, amount, 'energy_balance', 'energy_owed');
  return { taken, owed: amount - taken };
}

/** Gives `amount` back: first as forgiven debt, the rest to the balance. */
export async function giveBack(db: Queryable, userId: string, amount: number): Promise<{ credited: number; forgiven: number }> {
  const forgiven = await drainThenAdd(db, userId, amount, 'energy_owed', 'energy_balance');
  return { credited: amount - forgiven, forgiven };
}

type ProfileAmount = 'energy_balance' | 'energy_owed';

/** Takes up to `amount` from one column of the locked profile row and adds the rest to the other; what was taken. */
async function drainThenAdd(db: Queryable, userId: string, amount: number, first: ProfileAmount, rest: ProfileAmount): Promise<number> {
  const row = await one<{ drained: number }>(
    db,
    `WITH c AS (SELECT id, LEAST($2::int, ${first}) AS drained FROM user_profiles WHERE id = $1 FOR UPDATE)
     UPDATE user_profiles p
        SET ${first} = p.${first} - c.drained, ${rest} = p.${rest} + ($2::int - c.drained), updated_at = now()
       FROM c WHERE p.id = c.id
     RETURNING c.drained`,
    [userId, amount],
  );
  if (!row) throw new Error(`No profile for user ${userId}`);
  return row.drained;
}

/** Pays what is owed from the balance, as far as it goes; 0 when nothing was owed or nothing to pay with. */
export async function settleOwed(db: Queryable, userId: string): Promise<number> {
  const row = await one<{ paid: number }>(
    db,
    `WITH c AS (SELECT id, LEAST(energy_owed, energy_balance) AS paid FROM user_profiles
                 WHERE id = $1 AND energy_owed > 0 AND energy_balance > 0 FOR UPDATE)
     UPDATE user_profiles p
        SET energy_balance = p.energy_balance - c.paid, energy_owed = p.energy_owed - c.paid, updated_at = now()
       FROM c WHERE p.id = c.id
     RETURNING c.paid`,
    [userId],
  );
  return row?.paid ?? 0;
}

export async function readOwed(db: Queryable, userId: string): Promise<number> {
  const row = await one<{ energy_owed: number }>(db, 'SELECT energy_owed FROM user_profiles WHERE id = $1', [userId]);
  return row?.energy_owed ?? 0;
}

/** Net ENERGY taken back from a purchase so far (reversals minus restores, owed parts included). */
export async function reversedOfPayment(db: Queryable, paymentId: string): Promise<number> {
  const row = await one<{ reversed: number }>(
    db,
    `SELECT COALESCE(SUM(owed_change - amount), 0)::int AS reversed
       FROM energy_transactions WHERE payment_id = $1 AND type IN ('reversal', 'restore')`,
    [paymentId],
  );
  return row?.reversed ?? 0;
}

/** Every ledger entry of one purchase (the purchase, its reversals and restores), oldest first. */
export function paymentEntries(db: Queryable, paymentId: string) {
  return db.query<TransactionRow>('SELECT * FROM energy_transactions WHERE payment_id = $1 ORDER BY seq', [paymentId]);
}
