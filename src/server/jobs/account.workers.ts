import type { AccountService } from '../features/account/account.service.js';
import type { MailService } from '../features/mail/mail.service.js';
import { ACCOUNT_EXPORT_QUEUE, MAIL_QUEUE, type AccountExportMessage, type JobQueue } from './queue.js';

/** Mail delivery and large-export builds: light jobs next to the tool runs. */
export async function startAccountWorkers(deps: { queue: JobQueue; mail: MailService; account: AccountService }): Promise<void> {
  const mailWorker = await deps.queue.boss.work<{ mailId: string }>(
    MAIL_QUEUE,
    { batchSize: 1, localConcurrency: 2, pollingIntervalSeconds: 1 },
    async ([job]) => deps.mail.deliver(job.data.mailId),
  );
  const exportWorker = await deps.queue.boss.work<AccountExportMessage>(
    ACCOUNT_EXPORT_QUEUE,
    { batchSize: 1, localConcurrency: 1, pollingIntervalSeconds: 2 },
    async ([job]) => deps.account.buildExport(job.data.exportId),
  );
  deps.queue.workerIds.push(mailWorker, exportWorker);
  // Mails written while no queue was running (a CLI, a restart) go out now.
  await deps.mail.requeueWaiting();
}
