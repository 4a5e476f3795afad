-- Checkout sessions we created (Stripe's or the built-in test checkout's),
-- webhook events seen, and subscriptions (requirements §3 subscriptions view).
-- The exactly-once credit itself is the UNIQUE payment_id on energy_transactions.

CREATE TABLE checkout_sessions (
  id                text PRIMARY KEY,
  provider          text NOT NULL CHECK (provider IN ('stripe', 'test')),
  user_id           uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  bundle_id         text NOT NULL,
  price_id          text NOT NULL,
  plan_name         text NOT NULL,
  -- What the buyer was shown when the checkout was created.
  energy            integer NOT NULL CHECK (energy >= 0),
  amount_cents      integer NOT NULL CHECK (amount_cents >= 0),
  currency          text NOT NULL DEFAULT 'usd',
  status            text NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'processing', 'paid', 'fulfilled', 'failed', 'canceled')),
  payment_intent_id text,
  success_url       text NOT NULL,
  cancel_url        text NOT NULL,
  failure_reason    text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  fulfilled_at      timestamptz
);
CREATE INDEX checkout_sessions_user_idx ON checkout_sessions (user_id, created_at DESC);

CREATE TABLE payment_events (
  id          text PRIMARY KEY,
  type        text NOT NULL,
  session_id  text,
  received_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE subscriptions (
  stripe_subscription_id text PRIMARY KEY,
  user_id                uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  price_id               text NOT NULL,
  subscription_status    text NOT NULL,
  current_period_end     timestamptz,
  updated_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_user_idx ON subscriptions (user_id, updated_at DESC);
