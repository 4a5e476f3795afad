import { z } from 'zod';

// reversal / restore / settlement: money after the sale (decision 028); welcome: the welcome grant.
const TRANSACTION_TYPES = ['spend', 'purchase', 'refund', 'grant', 'reversal', 'restore', 'settlement', 'welcome'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** A row of GET /api/transactions: one ledger entry, newest first. */
export const energyTransactionSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  created_at: z.string(),
  type: z.enum(TRANSACTION_TYPES),
  description: z.string(),
  /** Negative for a spend, a reversal or a settlement, positive otherwise. */
  amount: z.number().int(),
  /** ENERGY this entry added to (+) or settled of (-) what the user owes; 0 for most entries. */
  owed_change: z.number().int(),
  job_id: z.string().nullable(),
  payment_id: z.string().nullable(),
  stripe_payment_intent_id: z.string().nullable(),
  amount_paid_cents: z.number().int().nullable(),
  /** The priced tool a spend paid for. */
  tool_name: z.string().nullable(),
  /** Insertion order, the list's paging key. */
  seq: z.number().int(),
  /** The personal API key that ran the job behind this entry, if one did. */
  api_key_name: z.string().nullable(),
  api_key_prefix: z.string().nullable(),
});
export type EnergyTransaction = z.infer<typeof energyTransactionSchema>;
