import { z } from 'zod';
import { cursorParam } from '../../core/cursor.js';
import { OUTPUT_FORMATS, outputMessages, outputOptions } from '../../../shared/output.js';

// What the library answers lives in src/shared (the web reads it too); what it accepts stays here.
export {
  libraryItemSchema,
  libraryPageSchema,
  libraryCountsSchema,
  libraryVersionsSchema,
  type LibraryItemDto,
  type LibraryPageDto,
} from '../../../shared/library.schema.js';
import { mediaKindSchema } from '../../../shared/library.schema.js';

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


/** GET /api/library/:id/download: the stored file, or with `format` a converted copy streamed as it is made. */
export const downloadQuery = z.object({
  format: z.enum(OUTPUT_FORMATS, { message: outputMessages.format }).optional().describe('Download a copy converted to this format (the stored file is unchanged)'),
  quality: outputOptions.shape.quality,
  background: outputOptions.shape.background,
});
