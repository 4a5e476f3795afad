-- Versions (issue 26, decision 034): every tool result knows the library item it was made from,
-- so the detail view can show a picture's chain (original -> restored -> upscaled -> edited).
-- Deleting a version links its results to its own source first (the service does it), so the
-- rest of the chain stays connected; deleting an original leaves its results in the library as
-- the start of their own chains (SET NULL is the backstop).
ALTER TABLE uploaded_images ADD COLUMN source_item_id uuid REFERENCES uploaded_images(id) ON DELETE SET NULL;
CREATE INDEX uploaded_images_source_idx ON uploaded_images (source_item_id) WHERE source_item_id IS NOT NULL;

-- Results made before this migration: the run recorded the item it read.
UPDATE uploaded_images AS i
   SET source_item_id = s.id
  FROM tool_jobs AS j, uploaded_images AS s
 WHERE i.job_id = j.id
   AND j.result->>'original_item_id' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
   AND s.id = (j.result->>'original_item_id')::uuid
   AND s.user_id = i.user_id
   AND s.id <> i.id;
