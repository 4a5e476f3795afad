-- Account self-service: e-mail (outbox and delivery state), one-time links
-- (password reset, e-mail verification), session activity, and deleted
-- accounts kept as anonymous tombstones so the ledger still adds up.

ALTER TABLE users ADD COLUMN email_verified_at timestamptz;
-- Set when the person deleted the account: the row stays, stripped of
-- e-mail, name and password, because ledger rows point at it.
ALTER TABLE users ADD COLUMN deleted_at timestamptz;

-- Written at most every few minutes (not per request) by the session check.
ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now();

-- Single-use links. Only the SHA-256 of the token is stored.
CREATE TABLE account_tokens (
  id         text PRIMARY KEY,
  user_id    uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose    text NOT NULL CHECK (purpose IN ('password_reset', 'email_verification')),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_tokens_user_idx ON account_tokens (user_id, purpose);

-- Every mail the app sends. A delivery job moves it from queued to sent
-- (SMTP: the bodies are then cleared, links must not outlive their use in
-- the database) or keeps it for the dev outbox page.
CREATE TABLE mail_messages (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid REFERENCES users(id) ON DELETE SET NULL,
  to_address  text NOT NULL,
  template    text NOT NULL,
  subject     text NOT NULL,
  text_body   text,
  html_body   text,
  transport   text NOT NULL CHECK (transport IN ('smtp', 'outbox')),
  status      text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
  attempts    integer NOT NULL DEFAULT 0,
  error       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  sent_at     timestamptz
);
CREATE INDEX mail_messages_outbox_idx ON mail_messages (created_at DESC) WHERE transport = 'outbox';
CREATE INDEX mail_messages_user_idx ON mail_messages (user_id);

-- 'Download my data' archives built as a job (large libraries); small ones
-- are streamed at once and leave no row.
CREATE TABLE account_exports (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status      text NOT NULL DEFAULT 'building' CHECK (status IN ('building', 'ready', 'failed')),
  storage_key text,
  size_bytes  bigint,
  error       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX account_exports_user_idx ON account_exports (user_id, created_at DESC);
