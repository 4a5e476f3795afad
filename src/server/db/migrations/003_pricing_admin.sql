-- Server-side prices (requirements §3 admin_tool_pricing, plan_energy_mapping), the
-- referral-only switch (referral_settings), an audit trail of admin changes,
-- and two ledger columns: the tool a spend paid for (statistics) and an
-- insertion sequence (exact, stable "newest first" paging).

CREATE TABLE admin_tool_pricing (
  tool_name           text PRIMARY KEY,
  display_name        text NOT NULL,
  description         text NOT NULL DEFAULT '',
  base_energy_cost    integer NOT NULL CHECK (base_energy_cost >= 0),
  discount_percentage integer NOT NULL DEFAULT 0 CHECK (discount_percentage BETWEEN 0 AND 100),
  is_active           boolean NOT NULL DEFAULT true,
  updated_at          timestamptz NOT NULL DEFAULT now()
);

-- requirements §9 default prices; each tool's names and description are also in its folder's info.ts.
INSERT INTO admin_tool_pricing (tool_name, display_name, description, base_energy_cost) VALUES
  ('upscaler',           'Basic Upscaler', 'Fast upscaling for everyday images',               1),
  ('fal-upscaler',       'Image Upscaler', 'Enlarge images up to 8x with AI super-resolution', 2),
  ('fal-image-editor',   'Image Editor',   'Edit images by describing the changes you want',   1),
  ('image-restore',      'Image Restore',  'Repair damaged, old or corrupted images',          1),
  ('fal-image-to-video', 'Image to Video', 'Bring a still image to life as a short video',     5),
  ('video-upscaler',     'Video Upscaler', 'Increase the resolution of your videos',          20);

CREATE TABLE plan_energy_mapping (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  price_id      text NOT NULL UNIQUE,
  plan_name     text NOT NULL,
  price_cents   integer NOT NULL CHECK (price_cents >= 0),
  energy_amount integer NOT NULL CHECK (energy_amount >= 0),
  bonus_energy  integer NOT NULL DEFAULT 0 CHECK (bonus_energy >= 0),
  is_active     boolean NOT NULL DEFAULT true,
  updated_at    timestamptz NOT NULL DEFAULT now()
);

-- requirements §3/§9 bundles; price ids as in src/shared/bundles.ts BUNDLES.
INSERT INTO plan_energy_mapping (price_id, plan_name, price_cents, energy_amount, bonus_energy) VALUES
  ('price_pixelrush_trial',   'Trial',   100,   7, 0),
  ('price_pixelrush_starter', 'Starter', 1000,  50, 0),
  ('price_pixelrush_pro',     'Pro',     2000, 110, 0),
  ('price_pixelrush_power',   'Power',   5000, 300, 0);

-- Exactly one row (the CHECK makes a second one impossible).
CREATE TABLE referral_settings (
  id               integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  is_referral_only boolean NOT NULL DEFAULT false,
  updated_at       timestamptz NOT NULL DEFAULT now()
);
INSERT INTO referral_settings (id, is_referral_only) VALUES (1, false);

-- Who changed what, when: old -> new. Append-only like the ledger.
CREATE TABLE admin_audit (
  id         bigserial PRIMARY KEY,
  admin_id   uuid REFERENCES users(id) ON DELETE SET NULL,
  action     text NOT NULL,
  target     text NOT NULL,
  old_value  jsonb,
  new_value  jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX admin_audit_time_idx ON admin_audit (id DESC);

-- The admin_tool_pricing.tool_name a spend paid for (runs-by-tool statistics).
ALTER TABLE energy_transactions ADD COLUMN tool_name text;
CREATE INDEX energy_transactions_tool_idx ON energy_transactions (tool_name) WHERE type = 'spend';

-- Insertion order. created_at is the transaction's start time (millisecond
-- resolution on the embedded database, microseconds on a server, where a
-- JavaScript Date cursor would also lose precision); paging by this sequence
-- is exact and shows entries in the order they were written.
ALTER TABLE energy_transactions ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
CREATE INDEX energy_transactions_user_seq_idx ON energy_transactions (user_id, seq DESC);
