-- Rate limits and quotas shared by every app process (they live in the
-- database, not in memory). One row per counted attempt: a sliding window is
-- a count over (key, at). Writers serialise per key with an advisory lock.
CREATE TABLE limit_events (
  key text        NOT NULL,
  at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX limit_events_key_at_idx ON limit_events (key, at);

-- Slots held while something runs (an outbound fetch); a slot left by a
-- crashed process frees itself when it expires.
CREATE TABLE limit_leases (
  id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
  key        text        NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX limit_leases_key_idx ON limit_leases (key, expires_at);

-- The failure log of the old sign-in throttle: replaced by limit_events.
DROP TABLE auth_failures;

-- Addresses an account has signed in from. Sign-ins from them skip the
-- account-wide throttle, so strangers guessing a password cannot lock the
-- owner out (they still meet the per-address limits).
CREATE TABLE known_sign_in_addresses (
  user_id uuid        NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  ip      text        NOT NULL,
  last_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, ip)
);
