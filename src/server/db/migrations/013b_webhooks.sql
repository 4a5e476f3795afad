-- Run webhooks. A run submitted with a webhook_url gets one delivery row,
-- written by a trigger in the same transaction as the run's single terminal
-- transition: however workers crash or race, a run is announced once.
ALTER TABLE tool_jobs ADD COLUMN webhook_url text;
ALTER TABLE tool_jobs ADD COLUMN api_key_id uuid REFERENCES api_keys(id) ON DELETE SET NULL;

CREATE TABLE webhook_deliveries (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  job_id          uuid NOT NULL UNIQUE REFERENCES tool_jobs(id) ON DELETE CASCADE,
  user_id         uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  url             text NOT NULL,
  event           text NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_status     integer,
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  delivered_at    timestamptz
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_user_idx ON webhook_deliveries (user_id, created_at DESC, id DESC);

CREATE TABLE webhook_attempts (
  id          bigserial PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt     integer NOT NULL,
  status_code integer,
  error       text,
  duration_ms integer NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempt);

CREATE FUNCTION tool_job_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_deliveries (job_id, user_id, url, event)
  VALUES (NEW.id, NEW.user_id, NEW.webhook_url, 'job.' || NEW.status)
  ON CONFLICT (job_id) DO NOTHING;
  PERFORM pg_notify('webhooks', NEW.id::text);
  RETURN NEW;
END $$;

CREATE TRIGGER tool_job_webhook_on_end
  AFTER UPDATE OF status ON tool_jobs
  FOR EACH ROW
  WHEN (OLD.status IN ('queued', 'running')
        AND NEW.status IN ('succeeded', 'failed', 'canceled')
        AND NEW.webhook_url IS NOT NULL)
  EXECUTE FUNCTION tool_job_webhook();
