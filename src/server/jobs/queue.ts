import { PgBoss, type SendOptions, type WorkOptions } from 'pg-boss';
import type { Db, Queryable } from '../db/db.js';
import { checkedPayload, type JobAddress, type JobDefinition } from './job-definition.js';
import { JOBS, type AccountExportMessage, type ToolRunMessage } from './jobs.js';

/** Longer than any source deadline (SOURCE_FETCH_TIMEOUT_SECONDS is at most 120). */
const SOURCE_FETCH_EXPIRE_SECONDS = 180;
// Any constant works: the same for every process of the app (see migrate.ts for the other).
const QUEUE_SCHEMA_LOCK_KEY = 727_002;
const HAND_BACK_WAIT_MS = 10_000;

const runJob = (batchItem: boolean) => (batchItem ? JOBS.batchRun : JOBS.toolRun);

export interface QueueOptions {
  /** Seconds without a worker heartbeat before a job is retried (a crashed worker). */
  heartbeatSeconds?: number;
  /** How often lapsed heartbeats and expired jobs are looked for. */
  superviseSeconds?: number;
  /** First delay before retrying a failed attempt (doubles each time). */
  retryDelaySeconds?: number;
  log?: { warn: (obj: unknown, msg?: string) => void; error: (obj: unknown, msg?: string) => void };
}

/**
 * The durable queue (pg-boss on our own database, embedded or server). A
 * tool run is enqueued in the same transaction that charges for it, so a
 * run is never charged without being queued, nor queued without a charge.
 */
export class JobQueue {
  private started?: PgBoss;
  private opts: QueueOptions = {};

  /** Built with the other services; it sends and works once started. */
  constructor(private readonly db: Db) {}

  get boss(): PgBoss {
    if (!this.started) throw new Error('The job queue has not started');
    return this.started;
  }

  static async start(db: Db, opts: QueueOptions = {}): Promise<JobQueue> {
    const queue = new JobQueue(db);
    await queue.start(opts);
    return queue;
  }

  async start(opts: QueueOptions = {}): Promise<void> {
    if (this.started) return;
    const db = this.db;
    this.opts = opts;
    // Confined test schemas get a queue schema of their own.
    const schema = db.schema ? `${db.schema}_boss` : 'pgboss';
    if (db.kind === 'postgres') {
      // pg-boss's own CREATE SCHEMA IF NOT EXISTS fails when two processes
      // start on an empty database at once (a unique violation it does not
      // expect): make the schema first, one process at a time.
      await db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [QUEUE_SCHEMA_LOCK_KEY]);
        await tx.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      });
    }
    const boss = new PgBoss({
      db: db.queueDatabase() as never,
      backend: db.kind === 'pglite' ? 'pglite' : 'postgres',
      schema,
      schedule: false,
      superviseIntervalSeconds: opts.superviseSeconds ?? 15,
      monitorIntervalSeconds: opts.superviseSeconds ?? 15,
    });
    boss.on('error', (err) => opts.log?.error({ err }, 'job queue error'));
    await boss.start();
    for (const { name } of [JOBS.toolRun, JOBS.batchRun]) {
      await boss.createQueue(name, {
        retryLimit: 2,
        retryDelay: opts.retryDelaySeconds ?? 5,
        retryBackoff: true,
        heartbeatSeconds: opts.heartbeatSeconds ?? 30,
        deleteAfterSeconds: 7 * 86_400,
      });
    }
    await boss.createQueue(JOBS.sourceFetch.name, {
      retryLimit: 1,
      retryDelay: opts.retryDelaySeconds ?? 5,
      heartbeatSeconds: opts.heartbeatSeconds ?? 30,
      expireInSeconds: SOURCE_FETCH_EXPIRE_SECONDS,
      deleteAfterSeconds: 86_400,
    });
    // Work no request waits for: a slow or down SMTP server, or a busy export, is retried with backoff.
    const background = { retryDelay: opts.retryDelaySeconds ?? 30, retryBackoff: true, deleteAfterSeconds: 86_400 };
    await boss.createQueue(JOBS.mail.name, { ...background, retryLimit: 4, expireInSeconds: 120 });
    await boss.createQueue(JOBS.accountExport.name, { ...background, retryLimit: 2, expireInSeconds: 3_600 });
    this.started = boss;
  }

  /**
   * Enqueues inside the caller's transaction; grouped by user for the per-user cap. Answers the
   * queue it went to, whose idle workers to wake once the transaction has committed.
   */
  async sendToolRun(message: ToolRunMessage, tx: Queryable, batchItem = false, fetchFirst = false): Promise<string> {
    if (fetchFirst) {
      await this.send(JOBS.sourceFetch, { ...message, batchItem }, { id: message.jobId, group: { id: message.userId }, db: txDb(tx) });
      return JOBS.sourceFetch.name;
    }
    await this.send(runJob(batchItem), message, {
      id: message.jobId,
      group: { id: message.userId },
      expireInSeconds: message.timeLimitSeconds,
      db: txDb(tx),
    });
    return runJob(batchItem).name;
  }

  /** A run whose source was fetched goes on to the run workers; a repeat for the same run is ignored. */
  async sendFetchedRun(message: ToolRunMessage, batchItem: boolean): Promise<void> {
    await this.send(runJob(batchItem), message, {
      id: message.jobId,
      group: { id: message.userId },
      expireInSeconds: message.timeLimitSeconds,
    });
    this.wake(runJob(batchItem).name);
  }

  /** Delivery of a stored mail, committed with tx when given. A second send of the same mail is ignored. */
  async sendMail(mailId: string, tx?: Queryable): Promise<void> {
    await this.send(JOBS.mail, { mailId }, { id: mailId, ...(tx ? { db: txDb(tx) } : {}) });
    this.wake(JOBS.mail.name);
  }

  async sendAccountExport(message: AccountExportMessage): Promise<void> {
    await this.send(JOBS.accountExport, message, { id: message.exportId });
    this.wake(JOBS.accountExport.name);
  }

  /** Sends a job to its queue; the payload is checked against the queue's schema first, so a wrong one is never stored. */
  private async send<P>(job: JobAddress<P>, payload: P, options: SendOptions): Promise<void> {
    await this.boss.send(job.name, checkedPayload(job, payload) as object, options);
  }

  /**
   * Works a queue: each job's payload is checked against the queue's schema before the handler
   * gets it (a payload that does not parse fails the attempt, named in the error), with `deps`,
   * what the handler needs at run time. Each of the
   * `localConcurrency` slots is a worker of its own, so a send can wake one idle slot and a slot
   * that just finished can fetch again at once, instead of all waiting out the polling interval.
   */
  async work<P, D>(job: JobDefinition<P, D>, deps: D, options: Omit<WorkOptions, 'batchSize'>): Promise<void> {
    const { localConcurrency = 1, ...perSlot } = options;
    const slots = this.slots.get(job.name) ?? [];
    this.slots.set(job.name, slots);
    for (let i = 0; i < localConcurrency; i++) {
      const slot = { id: '', busy: false };
      slot.id = await this.boss.work<object>(job.name, { ...perSlot, batchSize: 1 }, async ([message]) => {
        if (!message) return;
        slot.busy = true;
        try {
          await job.handler(checkedPayload(job, message.data), deps, message.signal);
        } finally {
          slot.busy = false;
          // More may be waiting: this slot looks again at once (an empty look sends it back to polling).
          this.started?.notifyWorker(slot.id);
        }
      });
      slots.push(slot);
    }
  }

  /** Slots of each queue worked in this process; `busy` while a handler runs. */
  private readonly slots = new Map<string, Array<{ id: string; busy: boolean }>>();
  private nextSlot = 0;

  /**
   * Wakes one idle slot of this process for a job just sent to the queue (every queue when none is
   * named), taking idle slots in turn so that many sends wake many slots, and one send one fetch.
   */
  wake(queue?: string): void {
    for (const [name, slots] of this.slots) {
      if (queue !== undefined && name !== queue) continue;
      const idle = slots.filter((s) => !s.busy);
      if (idle.length === 0) continue;
      this.started?.notifyWorker(idle[this.nextSlot++ % idle.length]!.id);
    }
  }

  async cancelToolRun(jobId: string, batchItem = false): Promise<void> {
    await this.boss.cancel(runJob(batchItem).name, jobId);
    // Still waiting for its source, or about to: the fetch worker sees it ended either way.
    await this.boss.cancel(JOBS.sourceFetch.name, jobId).catch(() => {});
  }

  private stopped = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  /** A handler's run, so that stop() can wait for its hand-back to be written. */
  track(run: Promise<unknown>): void {
    this.inFlight.add(run);
    run.finally(() => this.inFlight.delete(run)).catch(() => {});
  }

  /**
   * Resolves when every handler running in this process has returned: after a
   * cancel or a sweep, the moment a worker has finished with a run (saved or
   * thrown its result away), which tests wait on instead of sleeping.
   */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Started and not stopping: what readiness reports. */
  get running(): boolean {
    return !!this.started && !this.stopped;
  }

  /**
   * Stops fetching at once. Running jobs get `graceSeconds` to finish; then
   * the queue fails their attempt (a retry, on this or another process) and
   * aborts their handlers, which hand them back uncharged.
   */
  async stop(graceSeconds = 0): Promise<void> {
    this.stopped = true;
    const boss = this.started;
    this.started = undefined;
    await boss
      ?.stop({ graceful: graceSeconds > 0, timeout: Math.max(1_000, graceSeconds * 1000) })
      .catch((err) => this.opts.log?.warn({ err }, 'queue stop'));
    // Aborted handlers settle quickly (they only write the hand-back); bounded all the same.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((r) => {
        timer = setTimeout(r, HAND_BACK_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }
}

/** pg-boss's view of one of our transactions. */
function txDb(tx: Queryable): never {
  return { executeSql: async (text: string, values?: unknown[]) => ({ rows: await tx.query(text, values) }) } as never;
}
