-- Accounts, sessions, profiles (requirements §3 user_profiles) and the auth throttle.

CREATE TABLE users (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email         text NOT NULL UNIQUE CHECK (email = lower(email)),
  full_name     text NOT NULL,
  password_hash text NOT NULL,
  role          text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'vip', 'admin')),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);

-- Only a hash of the bearer token is stored: a database leak does not leak sessions.
CREATE TABLE sessions (
  id           text PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  user_agent   text,
  ip           text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE user_profiles (
  id                     uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  energy_balance         integer NOT NULL DEFAULT 0 CHECK (energy_balance >= 0),
  total_energy_purchased integer NOT NULL DEFAULT 0 CHECK (total_energy_purchased >= 0),
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now()
);

-- Failed sign-ins / registrations per key ('ip:...', 'account:...') for the throttle.
CREATE TABLE auth_failures (
  id         bigserial PRIMARY KEY,
  key        text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_failures_key_time_idx ON auth_failures (key, created_at);
