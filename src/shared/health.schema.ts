import { z } from 'zod';

const databaseKind = z.enum(['pglite', 'postgres']);

/** GET /api/health (liveness): 200 while the database answers, 503 'unavailable' when it does not. */
export const healthResponse = z.object({ status: z.literal('ok'), database: databaseKind, version: z.string() });
export const healthUnavailable = healthResponse.extend({ status: z.literal('unavailable') });

/** GET /api/ready: every check by name, so an operator sees which one holds traffic back. */
const readyChecks = z.object({ database: z.boolean(), migrations: z.boolean(), storage: z.boolean(), queue: z.boolean() });
export const readyResponse = z.object({ status: z.literal('ready'), checks: readyChecks, version: z.string() });
/** `failing` names the checks that hold traffic back, for a log line or an alert. */
export const notReadyResponse = readyResponse.extend({
  status: z.literal('not_ready'),
  failing: z.array(z.enum(['database', 'migrations', 'storage', 'queue'])),
});
