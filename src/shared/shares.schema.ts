import { z } from 'zod';
import { pageSchema } from './page.schema.js';

/** Public share links of library results (decision 031). */
export const SHARE_EXPIRIES = ['1d', '7d', '30d', 'never'] as const;
export type ShareExpiry = (typeof SHARE_EXPIRIES)[number];

export const SHARE_EXPIRY_SECONDS: Record<ShareExpiry, number | null> = {
  '1d': 86_400,
  '7d': 7 * 86_400,
  '30d': 30 * 86_400,
  never: null,
};

export const shareMessages = {
  notReady: 'Only a finished picture or video can be shared',
  noSource: 'This result has no source picture in your library to compare with',
  pairNeedsImages: 'A before/after pair needs two pictures',
  notFound: 'Share link not found',
  gone: 'This link has expired or was turned off by its owner.',
  madeWith: 'Made with PixelRush',
} as const;

export const createShareBody = z.object({
  item_id: z.uuid(),
  /** Share the result beside the picture it was made from, with a compare slider. */
  pair: z.boolean().default(false),
  expires_in: z.enum(SHARE_EXPIRIES).default('7d'),
  /** Let search engines index the page (off unless the owner says so). */
  indexable: z.boolean().default(false),
});

export const shareLinkSchema = z.object({
  id: z.uuid(),
  item_id: z.uuid(),
  /** The source picture of a before/after pair. */
  before_item_id: z.uuid().nullable(),
  /** The public page: anyone with it can see the shared picture. */
  url: z.string(),
  kind: z.enum(['image', 'video']),
  title: z.string(),
  tool: z.string().nullable(),
  indexable: z.boolean(),
  views: z.number().int().nonnegative(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
  status: z.enum(['active', 'expired', 'revoked']),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

export const shareListSchema = pageSchema(shareLinkSchema);
export const shareListQuery = z.object({
  /** Only the links of one library item. */
  item: z.uuid().optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
