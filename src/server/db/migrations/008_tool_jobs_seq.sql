-- Run history pages by insertion order: exact, unlike a timestamp that a
-- JavaScript Date cursor rounds to milliseconds.
ALTER TABLE tool_jobs ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
CREATE INDEX tool_jobs_user_seq_idx ON tool_jobs (user_id, seq DESC);
DROP INDEX tool_jobs_user_idx;
