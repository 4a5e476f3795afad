import { z } from 'zod';

/**
 * One queue: its name and the schema of what its jobs carry, written together so a
 * job cannot be sent to a queue whose workers read something else. A send checks the
 * payload before it is stored, and a worker checks it again before its handler runs.
 */
export interface JobDefinition<P> {
  readonly name: string;
  readonly schema: z.ZodType<P>;
}

/** A queue's work: the definition, and the handler its checked payloads are given to. */
export interface JobWorker<P> extends JobDefinition<P> {
  handler(payload: P, signal: AbortSignal): Promise<void>;
}

export function defineJob<S extends z.ZodType>(name: string, schema: S): JobDefinition<z.infer<S>> {
  return { name, schema: schema as z.ZodType<z.infer<S>> };
}

/** A queue's definition with its handler: what JobQueue.work takes. */
export function withHandler<P>(job: JobDefinition<P>, handler: JobWorker<P>['handler']): JobWorker<P> {
  return { ...job, handler };
}

/** A payload its queue's schema refuses: a bug in the sender, or a job stored by an older build. */
export class JobPayloadError extends Error {
  constructor(queue: string, error: z.ZodError) {
    super(`${queue}: payload does not match its schema: ${z.prettifyError(error)}`);
    this.name = 'JobPayloadError';
  }
}

export function checkedPayload<P>(job: JobDefinition<P>, payload: unknown): P {
  const parsed = job.schema.safeParse(payload);
  if (!parsed.success) throw new JobPayloadError(job.name, parsed.error);
  return parsed.data;
}
