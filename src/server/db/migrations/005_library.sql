-- The media library (requirements §3 uploaded_images: images and videos, uploaded or
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
  -- requirements §3: a video/ content type means video. Stored, so gallery pages per
  -- kind are one index range scan.
  kind               text GENERATED ALWAYS AS (CASE WHEN content_type LIKE 'video/%' THEN 'video' ELSE 'image' END) STORED,
  -- A pending item is exactly one whose storage path is under pending/.
  CHECK ((status = 'ready') = (storage_path NOT LIKE '%pending/%') OR status = 'failed')
);

-- Keyset pagination, newest first: per user and kind, and across both kinds.
-- is_generated is carried in the index so the gallery group counts are index-only.
CREATE INDEX uploaded_images_user_kind_page_idx ON uploaded_images (user_id, kind, created_at DESC, id DESC) INCLUDE (is_generated);
CREATE INDEX uploaded_images_user_page_idx ON uploaded_images (user_id, created_at DESC, id DESC);

-- Gallery group counts (Generated / Uploaded, images / videos), kept exact by
-- statement-level triggers, so reading them costs the same at 50 items or
-- 50,000 (a GROUP BY would scan every row of the user, and the embedded
-- database has no autovacuum to make that scan index-only).
CREATE TABLE uploaded_images_counts (
  user_id      uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind         text NOT NULL,
  is_generated boolean NOT NULL,
  n            bigint NOT NULL CHECK (n >= 0),
  PRIMARY KEY (user_id, kind, is_generated)
);

CREATE FUNCTION uploaded_images_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO uploaded_images_counts AS c (user_id, kind, is_generated, n)
  SELECT user_id, kind, is_generated, count(*) FROM new_rows GROUP BY 1, 2, 3
  ON CONFLICT (user_id, kind, is_generated) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE FUNCTION uploaded_images_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE uploaded_images_counts AS c SET n = c.n - d.n
    FROM (SELECT user_id, kind, is_generated, count(*) AS n FROM old_rows GROUP BY 1, 2, 3) AS d
   WHERE c.user_id = d.user_id AND c.kind = d.kind AND c.is_generated = d.is_generated;
  RETURN NULL;
END $$;

CREATE FUNCTION uploaded_images_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only rows whose group changed: a status or path update touches no count.
  UPDATE uploaded_images_counts AS c SET n = c.n - d.n
    FROM (SELECT o.user_id, o.kind, o.is_generated, count(*) AS n
            FROM old_rows o JOIN new_rows w USING (id)
           WHERE (o.user_id, o.kind, o.is_generated) IS DISTINCT FROM (w.user_id, w.kind, w.is_generated)
           GROUP BY 1, 2, 3) AS d
   WHERE c.user_id = d.user_id AND c.kind = d.kind AND c.is_generated = d.is_generated;
  INSERT INTO uploaded_images_counts AS c (user_id, kind, is_generated, n)
  SELECT w.user_id, w.kind, w.is_generated, count(*)
    FROM old_rows o JOIN new_rows w USING (id)
   WHERE (o.user_id, o.kind, o.is_generated) IS DISTINCT FROM (w.user_id, w.kind, w.is_generated)
   GROUP BY 1, 2, 3
  ON CONFLICT (user_id, kind, is_generated) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE TRIGGER uploaded_images_counts_insert AFTER INSERT ON uploaded_images
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION uploaded_images_counts_add();
CREATE TRIGGER uploaded_images_counts_delete AFTER DELETE ON uploaded_images
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION uploaded_images_counts_remove();
CREATE TRIGGER uploaded_images_counts_update AFTER UPDATE ON uploaded_images
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION uploaded_images_counts_move();
