import type { AccountService } from '../features/account/account.service.js';
import type { MailService } from '../features/mail/mail.service.js';
import type { JobQueue } from './queue.js';
import { JOBS } from './jobs.js';
import type { RunDeps } from './tool-run.worker.js';

export interface WorkerDeps extends RunDeps {
  /** Heavy jobs at once in this process (default: one per core). */
  concurrency: number;
  /** Batch items at once in this process, on workers of their own (default: concurrency). */
  batchConcurrency?: number;
  /** Runs of one user at once across all processes, so one user cannot starve the rest. */
  perUserConcurrency: number;
  /** Remote sources fetched at once in this process, ahead of their runs (default: SOURCE_FETCHES). */
  fetchConcurrency?: number;
}

/**
 * Remote sources fetched at once per process. Fetching is waiting on someone else's server, not
 * work for our cores, so more than the run slots; one user has one fetch at a time.
 */
const SOURCE_FETCHES = 4;

/**
 * Single runs and batch items are worked from two queues with workers of
 * their own, so a long batch never holds the workers single runs wait for;
 * on each, a user's runs are capped across processes so users interleave.
 */
export async function startToolWorkers(deps: WorkerDeps): Promise<void> {
  for (const [job, concurrency] of [
    [JOBS.toolRun, deps.concurrency],
    [JOBS.batchRun, deps.batchConcurrency ?? deps.concurrency],
  ] as const) {
    await deps.queue.work(job, deps, {
      localConcurrency: concurrency,
      groupConcurrency: perUserSlots(deps.perUserConcurrency, concurrency),
      pollingIntervalSeconds: 1,
    });
  }
  await deps.queue.work(JOBS.sourceFetch, deps, { localConcurrency: deps.fetchConcurrency ?? SOURCE_FETCHES, groupConcurrency: 1, pollingIntervalSeconds: 1 });
}

/**
 * Slots one user may hold on a queue: never every slot of a process that has more than one, so
 * one user's queued or hanging runs leave a slot for everyone else. A lone user on a two-slot
 * process runs one at a time (the price of that promise; see decision 027).
 */
function perUserSlots(perUser: number, processSlots: number): number {
  return processSlots > 1 ? Math.min(perUser, processSlots - 1) : perUser;
}


/** Mail delivery and large-export builds: light jobs next to the tool runs. */
export async function startAccountWorkers(deps: { queue: JobQueue; mail: MailService; account: AccountService }): Promise<void> {
  await deps.queue.work(JOBS.mail, deps, { localConcurrency: 2, pollingIntervalSeconds: 1 });
  await deps.queue.work(JOBS.accountExport, deps, { localConcurrency: 1, pollingIntervalSeconds: 2 });
  // Mails written while no queue was running (a CLI, a restart) go out now.
  await deps.mail.requeueWaiting();
}
