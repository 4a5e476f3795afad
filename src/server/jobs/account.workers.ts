import type { AccountService } from '../features/account/account.service.js';
import type { MailService } from '../features/mail/mail.service.js';
import { JOBS, type JobQueue } from './queue.js';
import { withHandler } from './job-definition.js';

/** Mail delivery and large-export builds: light jobs next to the tool runs. */
export async function startAccountWorkers(deps: { queue: JobQueue; mail: MailService; account: AccountService }): Promise<void> {
  await deps.queue.work(
    withHandler(JOBS.mail, (job) => deps.mail.deliver(job.mailId)),
    { localConcurrency: 2, pollingIntervalSeconds: 1 },
  );
  await deps.queue.work(
    withHandler(JOBS.accountExport, (job) => deps.account.buildExport(job.exportId)),
    { localConcurrency: 1, pollingIntervalSeconds: 2 },
  );
  // Mails written while no queue was running (a CLI, a restart) go out now.
  await deps.mail.requeueWaiting();
}
