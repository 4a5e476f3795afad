-- The ENERGY ledger (requirements §3 energy_transactions). Append-only: the code has
-- no UPDATE or DELETE path for it. amount is signed (spend < 0), so
-- energy_balance = SUM(amount) for every user, always.

CREATE TABLE energy_transactions (
  id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id                  uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at               timestamptz NOT NULL DEFAULT now(),
  type                     text NOT NULL CHECK (type IN ('spend', 'purchase', 'refund', 'grant')),
  description              text NOT NULL,
  amount                   integer NOT NULL,
  job_id                   uuid,
  payment_id               text,
  stripe_payment_intent_id text,
  amount_paid_cents        integer,
  CHECK ((type = 'spend' AND amount <= 0) OR (type <> 'spend' AND amount >= 0))
);
CREATE INDEX energy_transactions_user_time_idx ON energy_transactions (user_id, created_at DESC, id DESC);
-- A payment is credited once; a job is charged once and refunded at most once.
CREATE UNIQUE INDEX energy_transactions_payment_uq ON energy_transactions (payment_id) WHERE type = 'purchase';
CREATE UNIQUE INDEX energy_transactions_job_uq ON energy_transactions (job_id, type) WHERE job_id IS NOT NULL;
