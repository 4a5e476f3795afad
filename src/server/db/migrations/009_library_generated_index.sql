-- The gallery's Generated and Uploaded groups page separately: one index
-- range scan each, however lopsided the two groups are.
CREATE INDEX uploaded_images_user_kind_generated_page_idx
  ON uploaded_images (user_id, kind, is_generated, created_at DESC, id DESC);
