import { z } from 'zod';
import { toolJobSchema } from './tools.js';
import { batchSummary, BATCH_EVENT } from './batch.schema.js';
import { ROLES } from './constants.js';

/**
 * What GET /api/events sends, one schema per event name. The server builds each
 * event's data against these types and the web parses every event with them, so
 * the two cannot drift apart and a malformed event is dropped rather than cast.
 */

/** A run's progress or end, to its owner. */
export const jobEventSchema = toolJobSchema
  .pick({ id: true, tool: true, status: true, progress_stage: true, progress_fraction: true })
  .extend({
    error: z.string().nullable().optional(),
    library_item_id: z.string().nullable().optional(),
    /** The batch the run belongs to, if any. */
    batch_id: z.string().nullable().optional(),
  });
export type JobEvent = z.infer<typeof jobEventSchema>;

export const serverEventSchemas = {
  /** Tool prices, plans or the referral switch changed (to everyone). */
  pricing: z.looseObject({ changed: z.array(z.string()).optional() }),
  /** The user's ENERGY balance changed. */
  balance: z.looseObject({ energy_balance: z.number().nullable() }),
  /** An admin changed the user's role. */
  profile: z.looseObject({ role: z.enum(ROLES) }),
  /** An admin suspended the account; its streams close right after (decision 028). */
  account_suspended: z.looseObject({}),
  job: jobEventSchema,
  /** A batch's counts changed (its settings are left out: events stay small); any tool the server offers in batches. */
  [BATCH_EVENT]: batchSummary.partial({ settings: true }),
} as const;

export type ServerEventName = keyof typeof serverEventSchemas;
export type ServerEventData<N extends ServerEventName> = z.infer<(typeof serverEventSchemas)[N]>;
