-- Money after the sale (decision 028): refunds and disputes take back the
-- ENERGY a purchase granted, a won dispute gives it back, and what could not
-- be taken because it was spent is owed until a later credit settles it.
--
-- Two sums hold for every user, always:
--   energy_balance = SUM(energy_transactions.amount)
--   energy_owed    = SUM(energy_transactions.owed_change)

ALTER TABLE user_profiles ADD COLUMN energy_owed integer NOT NULL DEFAULT 0 CHECK (energy_owed >= 0);

ALTER TABLE energy_transactions ADD COLUMN owed_change integer NOT NULL DEFAULT 0;

-- New entry types: 'reversal' (taken back for a refund or dispute: amount <= 0,
-- owed_change >= 0 for the part already spent), 'restore' (a won dispute:
-- amount >= 0, owed_change <= 0), 'settlement' (an owed amount paid from the
-- balance: amount = -owed_change <= 0), 'welcome' (the optional welcome grant).
ALTER TABLE energy_transactions DROP CONSTRAINT IF EXISTS energy_transactions_type_check;
ALTER TABLE energy_transactions DROP CONSTRAINT IF EXISTS energy_transactions_check;
ALTER TABLE energy_transactions ADD CONSTRAINT energy_transactions_type_check
  CHECK (type IN ('spend', 'purchase', 'refund', 'grant', 'reversal', 'restore', 'settlement', 'welcome'));
ALTER TABLE energy_transactions ADD CONSTRAINT energy_transactions_check CHECK (
  (type = 'spend' AND amount <= 0 AND owed_change = 0)
  OR (type = 'reversal' AND amount <= 0 AND owed_change >= 0)
  OR (type = 'settlement' AND amount <= 0 AND owed_change = amount)
  OR (type = 'restore' AND amount >= 0 AND owed_change <= 0)
  OR (type IN ('purchase', 'refund', 'grant', 'welcome') AND amount >= 0 AND owed_change = 0)
);
-- Reversals and restores of a purchase are found by its payment id.
CREATE INDEX energy_transactions_payment_idx ON energy_transactions (payment_id) WHERE payment_id IS NOT NULL;

-- The charge behind a purchase as Stripe last told us (or the test checkout
-- recorded): amounts only ever grow, so a late or repeated event changes nothing.
CREATE TABLE payment_charges (
  payment_intent_id text PRIMARY KEY,
  charge_id         text,
  amount            integer NOT NULL CHECK (amount >= 0),
  amount_refunded   integer NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0),
  currency          text NOT NULL DEFAULT 'usd',
  receipt_url       text,
  updated_at        timestamptz NOT NULL DEFAULT now()
);

-- Disputes (chargebacks) by Stripe's id; status is Stripe's.
CREATE TABLE payment_disputes (
  id                text PRIMARY KEY,
  payment_intent_id text NOT NULL,
  charge_id         text,
  amount            integer NOT NULL CHECK (amount >= 0),
  currency          text NOT NULL DEFAULT 'usd',
  reason            text,
  status            text NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_disputes_intent_idx ON payment_disputes (payment_intent_id);

-- The welcome grant: an amount the admin sets (0: none), and (hashed) the e-mail
-- addresses that have had it, kept after an account is deleted so it is
-- never given twice to one address.
ALTER TABLE referral_settings ADD COLUMN welcome_energy integer NOT NULL DEFAULT 0 CHECK (welcome_energy >= 0);
CREATE TABLE welcome_grants (
  email_key  text PRIMARY KEY,
  user_id    uuid,
  granted_at timestamptz NOT NULL DEFAULT now()
);
-- Once per account, whatever happens at sign-up.
CREATE UNIQUE INDEX energy_transactions_welcome_uq ON energy_transactions (user_id) WHERE type = 'welcome';
