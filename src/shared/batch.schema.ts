import { z } from 'zod';
import { countedPageSchema } from './page.schema.js';
import { BATCH_MAX_ITEMS, batchMessages } from './batch.rules.js';

/**
 * Batch Processing: one image tool, its settings, and up to 100 library
 * images, run as one request. Each image is its own tool run (charged and
 * refunded on its own, in the same ledger as single runs).
 */

export { BATCH_MAX_ITEMS, batchMessages } from './batch.rules.js';

export const BATCH_ITEM_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type BatchItemStatus = (typeof BATCH_ITEM_STATUSES)[number];

export const batchItem = z.object({
  /** The tool run of this image (GET /api/tools/jobs/:id). */
  job_id: z.string(),
  position: z.number().int(),
  source_item_id: z.string().nullable(),
  source_name: z.string().nullable(),
  source_thumbnail_url: z.string().nullable(),
  status: z.enum(BATCH_ITEM_STATUSES),
  progress_stage: z.string().nullable(),
  progress_fraction: z.number(),
  error: z.string().nullable(),
  cost: z.number().int(),
  /** The result in the library, once succeeded. */
  library_item_id: z.string().nullable(),
  result_url: z.string().nullable(),
  result_thumbnail_url: z.string().nullable(),
  /** A retried item points at its newer run. */
  retried_by: z.string().nullable(),
});
export type BatchItem = z.infer<typeof batchItem>;

export const batchCounts = z.object({
  queued: z.number().int(),
  running: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  canceled: z.number().int(),
});

/**
 * POST /api/batches and POST /api/batches/estimate, for the tools a batch can run: the server passes
 * those of its registry whose info says `batch`. A tool is named by a string in the published shapes
 * (the list is checked here, not published as an enum), so the web and a tool added to the registry
 * need no list of their own.
 */
export function batchRequestFor(tools: readonly string[]) {
  return z.object({
    tool: z
      .string({ message: batchMessages.toolRequired })
      .refine((tool) => tools.includes(tool), { message: batchMessages.toolRequired })
      .meta({ description: `A tool that runs in batches: ${tools.join(', ')}` }),
    /** The tool's own fields except image_url (e.g. { scale: 4 } or { prompt: '...' }). */
    settings: z.record(z.string(), z.unknown()).default({}),
    /** Library item ids (images of the caller), in the order to run. */
    items: z
      .array(z.string().uuid(), { message: batchMessages.noImages })
      .min(1, batchMessages.noImages)
      .max(BATCH_MAX_ITEMS, batchMessages.tooManyImages)
      .refine((ids) => new Set(ids).size === ids.length, batchMessages.duplicateImages),
  });
}
export type BatchRequest = z.input<ReturnType<typeof batchRequestFor>>;

/** What a batch would cost against the caller's balance, before confirming. */
export const batchEstimate = z.object({
  tool: z.string(),
  item_count: z.number().int(),
  unit_cost: z.number().int(),
  total_cost: z.number().int(),
  balance: z.number().int(),
  /** How many images, from the start of the list, the balance covers (item_count when free or covered). */
  affordable_count: z.number().int(),
  /** Expected seconds for the whole batch on this installation. */
  estimate_seconds: z.number().nullable(),
});
export type BatchEstimate = z.infer<typeof batchEstimate>;

export const batch = z.object({
  id: z.string(),
  tool: z.string(),
  settings: z.record(z.string(), z.unknown()),
  /** 'running' while any item is queued or running. */
  status: z.enum(['running', 'done']),
  item_count: z.number().int(),
  counts: batchCounts,
  /** 0..1 over all current items, from each item's real progress. */
  progress: z.number(),
  /** Seconds until the last item should end, from measured run times; null when done or unknown. */
  eta_seconds: z.number().nullable(),
  energy_charged: z.number().int(),
  energy_refunded: z.number().int(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** Current items only (a retried item is replaced by its new run), in position order. */
  items: z.array(batchItem),
});
export type Batch = z.infer<typeof batch>;
/** GET /api/batches: newest first, without items. */
export const batchSummary = batch.omit({ items: true });
export type BatchSummary = z.infer<typeof batchSummary>;
/** With the count of all the user's batches (the Batches tab shows it; pages hold ten). */
export const batchList = countedPageSchema(batchSummary);

/** 402 from POST /api/batches and retry-failed: nothing was charged; this many would be. */
export const batchShortfall = z.looseObject({
  error: z.string(),
  code: z.literal('insufficient_energy'),
  affordable_count: z.number().int(),
  total_cost: z.number().int(),
  balance: z.number().int(),
});
export type BatchShortfall = z.infer<typeof batchShortfall>;

/** Server event on GET /api/events when a batch's counts change (items also send their 'job' events). */
export const BATCH_EVENT = 'batch';
