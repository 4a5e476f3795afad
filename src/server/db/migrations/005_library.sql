-- The media library (SPEC §3 uploaded_images: images and videos, uploaded or
-- generated). Files live in storage bucket user-images under keys we make
-- ({user_id}/{uuid}.{ext}); original_name is the user's name, metadata only.

CREATE TABLE uploaded_images (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id            uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  filename           text NOT NULL,
  original_name      text NOT NULL,
  file_size          bigint NOT NULL DEFAULT 0 CHECK (file_size >= 0),
  content_type       text NOT NULL,
  storage_path       text NOT NULL UNIQUE,
  is_generated       boolean NOT NULL DEFAULT false,
  generation_type    text,
  original_image_url text,
  duration_seconds   numeric(10, 3) CHECK (duration_seconds IS NULL OR duration_seconds >= 0),
  created_at         timestamptz NOT NULL DEFAULT now(),
  -- Beyond the spec's fields: the WebP thumbnail (or video poster), displayed
  -- size, life cycle of generated videos, and the tool job that made it.
  thumbnail_path     text,
  width              integer CHECK (width IS NULL OR width > 0),
  height             integer CHECK (height IS NULL OR height > 0),
  status             text NOT NULL DEFAULT 'ready' CHECK (status IN ('pending', 'ready', 'failed')),
  -- One library item per tool job: a retried job saves exactly once.
  job_id             uuid UNIQUE,
  prompt             text,
  error              text,
  -- SPEC §3: a video/ content type means video. Stored, so gallery pages per
  -- kind are one index range scan.
  kind               text GENERATED ALWAYS AS (CASE WHEN content_type LIKE 'video/%' THEN 'video' ELSE 'image' END) STORED,
  -- A pending item is exactly one whose storage path is under pending/.
  CHECK ((status = 'ready') = (storage_path NOT LIKE '%pending/%') OR status = 'failed')
);

-- Keyset pagination, newest first: per user and kind, and across both kinds.
-- is_generated is carried in the index so the gallery group counts are index-only.
CREATE INDEX uploaded_images_user_kind_page_idx ON uploaded_images (user_id, kind, created_at DESC, id DESC) INCLUDE (is_generated);
CREATE INDEX uploaded_images_user_page_idx ON uploaded_images (user_id, created_at DESC, id DESC);
