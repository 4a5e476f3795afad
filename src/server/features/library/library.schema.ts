import { z } from 'zod';
import { pageSchema } from '../../../shared/page.schema.js';
import { cursorParam } from '../../http/cursor.js';

/** The library's HTTP contract (OpenAPI at /api/docs); API tests parse every answer with these. */
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
  prompt: z.string().nullable(),
  error: z.string().nullable(),
});

export const libraryPageSchema = pageSchema(libraryItemSchema);

const group = z.object({ generated: z.number().int(), uploaded: z.number().int(), total: z.number().int() });
export const libraryCountsSchema = z.object({
  images: group,
  videos: group,
  /** Library bytes against the per-user quota (null: no quota). */
  storage: z.object({ used_bytes: z.number().int().nonnegative(), quota_bytes: z.number().int().positive().nullable() }),
});

/** 48 = 12 rows of the 4-column image grid (requirements §9: storage list limit 100). */
export const LIBRARY_PAGE_DEFAULT = 48;
export const LIBRARY_PAGE_MAX = 100;

export const libraryListQuery = z.object({
  kind: mediaKindSchema.optional(),
  /** Only the Generated (true) or Uploaded (false) group. */
  generated: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  /** Only the results of one batch run. */
  batch: z.string().uuid().optional(),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(LIBRARY_PAGE_MAX).default(LIBRARY_PAGE_DEFAULT),
});

export const uploadQuery = z.object({ kind: mediaKindSchema.optional() });

export const importUrlBody = z.object({
  url: z.string().trim().min(1).max(4096),
  kind: mediaKindSchema.optional(),
});

export const checkUrlBody = z.object({
  url: z.string().trim().min(1).max(4096),
  kind: mediaKindSchema.default('image'),
});

export const checkedUrlSchema = z.object({
  url: z.string(),
  kind: mediaKindSchema,
  content_type: z.string(),
  file_size: z.number().int(),
});

export const itemParams = z.object({ id: z.string().max(100) });

export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

export type LibraryItemDto = z.infer<typeof libraryItemSchema>;
export type LibraryPageDto = z.infer<typeof libraryPageSchema>;
export type LibraryCountsDto = z.infer<typeof libraryCountsSchema>;
