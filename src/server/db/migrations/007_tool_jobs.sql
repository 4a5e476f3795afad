-- Tool runs. A job is charged at submit (same transaction as this row and
-- the queue entry) and ends exactly once: succeeded, or failed/canceled with
-- one refund (the ledger's UNIQUE (job_id, type) backs that up).

CREATE TABLE tool_jobs (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id           uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  tool              text NOT NULL,
  status            text NOT NULL DEFAULT 'queued'
                    CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'canceled')),
  input             jsonb NOT NULL,
  cost              integer NOT NULL CHECK (cost >= 0),
  provider          text,
  progress_stage    text,
  progress_fraction real NOT NULL DEFAULT 0,
  attempts          integer NOT NULL DEFAULT 0,
  remote_request_id text,
  result            jsonb,
  error             text,
  library_item_id   uuid,
  idempotency_key   text,
  request_hash      text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  started_at        timestamptz,
  finished_at       timestamptz,
  deadline_at       timestamptz NOT NULL
);
CREATE INDEX tool_jobs_user_idx ON tool_jobs (user_id, created_at DESC, id DESC);
CREATE INDEX tool_jobs_open_idx ON tool_jobs (status, deadline_at) WHERE status IN ('queued', 'running');
-- One job per (user, Idempotency-Key): a replayed submit finds the first.
CREATE UNIQUE INDEX tool_jobs_idempotency_uq ON tool_jobs (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
