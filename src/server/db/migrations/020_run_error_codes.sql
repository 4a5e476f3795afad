-- Admin > Jobs: why each run ended, in a word operators can filter and count
-- (timed_out, provider_refused, provider_unavailable, invalid_result, internal,
-- overdue, unknown_tool, cancelled, suspended); the message for the user stays in `error`.
ALTER TABLE tool_jobs ADD COLUMN error_code text;
-- Every run, newest first, whoever ran it; and the last hour's or day's ends (failure rates).
CREATE INDEX tool_jobs_seq_idx ON tool_jobs (seq DESC);
CREATE INDEX tool_jobs_finished_idx ON tool_jobs (finished_at) WHERE finished_at IS NOT NULL;
