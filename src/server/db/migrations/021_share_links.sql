-- Public share links (decision 031). A link serves its own copies of the
-- pictures, stripped of metadata and stored under keys that name no one
-- (shares/<random>.<ext>); the owner's library file is never served by it.

CREATE TABLE share_links (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id        uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- The result shared, and for a before/after pair its source. The service
  -- removes a link (and its copies) before either item is deleted; the
  -- cascade is the backstop.
  item_id        uuid NOT NULL REFERENCES uploaded_images(id) ON DELETE CASCADE,
  before_item_id uuid REFERENCES uploaded_images(id) ON DELETE CASCADE,
  -- 144 random bits, base64url: the whole permission.
  token          text NOT NULL UNIQUE,
  kind           text NOT NULL CHECK (kind IN ('image', 'video')),
  tool           text,
  title          text NOT NULL,
  media_key      text NOT NULL,
  media_type     text NOT NULL,
  before_key     text,
  before_type    text,
  poster_key     text,
  width          integer,
  height         integer,
  indexable      boolean NOT NULL DEFAULT false,
  views          bigint NOT NULL DEFAULT 0 CHECK (views >= 0),
  expires_at     timestamptz,
  revoked_at     timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX share_links_user_page_idx ON share_links (user_id, created_at DESC, id DESC);
CREATE INDEX share_links_item_idx ON share_links (item_id);
CREATE INDEX share_links_before_item_idx ON share_links (before_item_id) WHERE before_item_id IS NOT NULL;
