-- Uploads deduplicated per user by the SHA-256 of the bytes received. A second upload of the same
-- bytes under another name is a second library entry pointing at the same stored file, so a file
-- may now back several rows: storage_path is no longer unique, and a file is removed only with
-- the last row that points at it.
ALTER TABLE uploaded_images ADD COLUMN content_sha256 text;
ALTER TABLE uploaded_images DROP CONSTRAINT IF EXISTS uploaded_images_storage_path_key;
CREATE INDEX uploaded_images_storage_path_idx ON uploaded_images (storage_path);
CREATE INDEX uploaded_images_dedupe_idx ON uploaded_images (user_id, content_sha256)
  WHERE content_sha256 IS NOT NULL AND status = 'ready';
