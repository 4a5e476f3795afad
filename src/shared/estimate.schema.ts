import { z } from 'zod';

/** GET /api/tools/:tool/estimate: the input's size, when known, scales the measured time. */
export const toolEstimateQuery = z.object({ megapixels: z.coerce.number().positive().max(1000).optional() });

/** How long a run of a tool should take here: measured from recent runs, or the published range. */
export const toolEstimateSchema = z.object({
  source: z.enum(['history', 'default']),
  median_seconds: z.number().nullable(),
  p90_seconds: z.number().nullable(),
  samples: z.number().int(),
  text: z.string(),
});
