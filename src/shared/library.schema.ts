import { z } from 'zod';
import { pageSchema } from './page.schema.js';

/** What the library answers (OpenAPI at /api/docs): the server builds these, the web and the API tests read them. */
export const mediaKindSchema = z.enum(['image', 'video']);

export const libraryItemSchema = z.object({
  id: z.string().uuid(),
  user_id: z.string().uuid(),
  filename: z.string(),
  original_name: z.string(),
  file_size: z.number().int().nonnegative(),
  content_type: z.string(),
  storage_path: z.string(),
  is_generated: z.boolean(),
  generation_type: z.string().nullable(),
  original_image_url: z.string().nullable(),
  duration_seconds: z.number().nullable(),
  created_at: z.string(),
  kind: mediaKindSchema,
  /** Signed link to the file (absent while pending). */
  url: z.string().optional(),
  /** Signed link that downloads under the original name (absent while pending). */
  download_url: z.string().optional(),
  /** Signed WebP thumbnail or video poster. */
  thumbnail_url: z.string().optional(),
  /** Until when the signed links above work at least (ISO time): ask for the item again before then. */
  url_expires_at: z.string().optional(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  status: z.enum(['pending', 'ready', 'failed']),
  job_id: z.string().uuid().nullable(),
  /** The batch whose run made this item (GET /api/library?batch=<id> lists them). */
  batch_id: z.string().uuid().nullable(),
  /** The library item a tool made this from, while it exists (GET /api/library/:id/versions shows the chain). */
  source_item_id: z.string().uuid().nullable(),
  prompt: z.string().nullable(),
  error: z.string().nullable(),
});

export const libraryPageSchema = pageSchema(libraryItemSchema);

/** GET /api/library/:id/versions: the picture's chain, oldest first; each item names its source. */
export const libraryVersionsSchema = z.object({ items: z.array(libraryItemSchema) });

const group = z.object({ generated: z.number().int(), uploaded: z.number().int(), total: z.number().int() });
export const libraryCountsSchema = z.object({
  images: group,
  videos: group,
  /** Library bytes against the per-user quota (null: no quota). */
  storage: z.object({ used_bytes: z.number().int().nonnegative(), quota_bytes: z.number().int().positive().nullable() }),
  /** The largest file one upload may be, by kind (the operator sets them; the drop zones say them). */
  upload_max_bytes: z.object({ image: z.number().int().positive(), video: z.number().int().positive() }),
});

export type LibraryItemDto = z.infer<typeof libraryItemSchema>;
export type LibraryPageDto = z.infer<typeof libraryPageSchema>;
export type LibraryCountsDto = z.infer<typeof libraryCountsSchema>;
