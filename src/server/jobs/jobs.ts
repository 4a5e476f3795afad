import { z } from 'zod';
import type { AccountService } from '../features/account/account.service.js';
import type { MailService } from '../features/mail/mail.service.js';
import { defineJob } from './job-definition.js';
import { workSourceFetch, workToolRun } from './tool-run.worker.js';

const toolRunMessage = z.object({
  jobId: z.string(),
  userId: z.string(),
  timeLimitSeconds: z.number().positive(),
  /** The run's tool, so a worker claims it without reading the job first (absent in jobs queued by older builds). */
  tool: z.string().optional(),
});
export type ToolRunMessage = z.infer<typeof toolRunMessage>;

const sourceFetchMessage = toolRunMessage.extend({
  /** Where the run goes once its source is in: the batch queue or the single-run one. */
  batchItem: z.boolean(),
});
export type SourceFetchMessage = z.infer<typeof sourceFetchMessage>;

const accountExportMessage = z.object({ exportId: z.string(), userId: z.string() });
export type AccountExportMessage = z.infer<typeof accountExportMessage>;

/** The app's queues, each with what its jobs carry and the handler that works them. */
export const JOBS = {
  toolRun: defineJob('tool-run', toolRunMessage, workToolRun),
  /** Batch items: the same runs, on workers of their own so single runs never wait behind a batch. */
  batchRun: defineJob('batch-run', toolRunMessage, workToolRun),
  /**
   * Runs whose source is a URL of another server wait here first: the source is fetched under its
   * deadline by workers of their own, one per user at a time, and only then does the run go to a
   * run queue. A source that hangs holds no slot of the workers that run tools.
   */
  sourceFetch: defineJob('source-fetch', sourceFetchMessage, workSourceFetch),
  /** One job per stored mail (the job id is the mail id). */
  mail: defineJob('mail', z.object({ mailId: z.string() }), (job, deps: { mail: Pick<MailService, 'deliver'> }) => deps.mail.deliver(job.mailId)),
  /** 'Download my data' archives too large to stream at once. */
  accountExport: defineJob('account-export', accountExportMessage, (job, deps: { account: Pick<AccountService, 'buildExport'> }) =>
    deps.account.buildExport(job.exportId),
  ),
} as const;
