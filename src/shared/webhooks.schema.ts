import { z } from 'zod';
import { pageSchema } from './page.schema.js';

export const webhookMessages = {
  invalidUrl: 'The webhook URL must be a public http or https address',
} as const;

/** Optional on every tool run: where to POST the run's end. */
export const webhookUrlField = z.string().trim().max(2000).url(webhookMessages.invalidUrl).optional();

export const webhookEventSchema = z.object({
  /** The delivery's id: the same on every retry, so receivers can drop repeats. */
  id: z.string(),
  type: z.string(),
  created_at: z.string(),
  data: z.object({
    job_id: z.string(),
    tool: z.string(),
    status: z.string(),
    result: z.record(z.string(), z.unknown()).nullable(),
    error: z.string().nullable(),
    /** The result in the owner's library (GET /api/library/:id), once the run succeeded. */
    library_item_id: z.string().nullable(),
    energy_used: z.number(),
    energy_refunded: z.number(),
    finished_at: z.string().nullable(),
  }),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export const webhookAttemptSchema = z.object({
  attempt: z.number(),
  status_code: z.number().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number(),
  at: z.string(),
});

export const webhookDeliverySchema = z.object({
  id: z.string(),
  job_id: z.string(),
  url: z.string(),
  event: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  next_attempt_at: z.string().nullable(),
  last_status: z.number().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  log: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = pageSchema(webhookDeliverySchema);
export const webhookSecretSchema = z.object({ secret: z.string(), header: z.string(), scheme: z.string() });
