import { z } from 'zod';

/**
 * One queue: its name, the schema of what its jobs carry, and the handler that works them,
 * written together so a job cannot be sent to a queue whose workers read something else. A send
 * checks the payload before it is stored, and a worker checks it again before the handler runs.
 *
 * The handler is a plain function of the payload and `deps`: what it needs at run time (the
 * services) is given when the queue is worked, because those services are built after the queue
 * they send to. So the definitions import no service, and no service imports them.
 */
export interface JobDefinition<P, D = never> {
  readonly name: string;
  readonly schema: z.ZodType<P>;
  handler(payload: P, deps: D, signal: AbortSignal): Promise<void>;
}

/** What a send needs of a definition: where it goes and what it must carry. */
export type JobAddress<P> = Pick<JobDefinition<P>, 'name' | 'schema'>;

export function defineJob<S extends z.ZodType, D>(
  name: string,
  schema: S,
  handler: (payload: z.infer<S>, deps: D, signal: AbortSignal) => Promise<void>,
): JobDefinition<z.infer<S>, D> {
  return { name, schema: schema as z.ZodType<z.infer<S>>, handler };
}

/** A payload its queue's schema refuses: a bug in the sender, or a job stored by an older build. */
export class JobPayloadError extends Error {
  constructor(queue: string, error: z.ZodError) {
    super(`${queue}: payload does not match its schema: ${z.prettifyError(error)}`);
    this.name = 'JobPayloadError';
  }
}

export function checkedPayload<P>(job: JobAddress<P>, payload: unknown): P {
  const parsed = job.schema.safeParse(payload);
  if (!parsed.success) throw new JobPayloadError(job.name, parsed.error);
  return parsed.data;
}
