-- Batch Processing: one tool and its settings over up to 100 library images.
-- Each image is an ordinary tool run (tool_jobs row, charged and refunded on
-- its own); the batch row only groups them.
CREATE TABLE batches (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id         uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  tool            text NOT NULL,
  settings        jsonb NOT NULL,
  item_count      integer NOT NULL CHECK (item_count > 0),
  idempotency_key text,
  request_hash    text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  seq             bigint GENERATED ALWAYS AS IDENTITY
);
-- GET /api/batches pages by insertion order, newest first.
CREATE INDEX batches_user_seq_idx ON batches (user_id, seq DESC);
CREATE UNIQUE INDEX batches_idempotency_uq ON batches (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

ALTER TABLE tool_jobs ADD COLUMN batch_id uuid REFERENCES batches(id) ON DELETE CASCADE;
ALTER TABLE tool_jobs ADD COLUMN batch_position integer;
-- A failed batch item that was run again points at its newer run (at most one).
ALTER TABLE tool_jobs ADD COLUMN retried_by uuid;
CREATE INDEX tool_jobs_batch_idx ON tool_jobs (batch_id, batch_position) WHERE batch_id IS NOT NULL;
