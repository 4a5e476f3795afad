import { PgBoss } from 'pg-boss';
import type { Db, Queryable } from '../db/db.js';

export const TOOL_RUN_QUEUE = 'tool-run';

export interface ToolRunMessage {
  jobId: string;
  userId: string;
  timeLimitSeconds: number;
}

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
  private constructor(
    readonly boss: PgBoss,
    private readonly opts: QueueOptions,
  ) {}

  static async start(db: Db, opts: QueueOptions = {}): Promise<JobQueue> {
    const boss = new PgBoss({
      db: db.queueDatabase() as never,
      backend: db.kind === 'pglite' ? 'pglite' : 'postgres',
      // Confined test schemas get a queue schema of their own.
      schema: db.schema ? `${db.schema}_boss` : 'pgboss',
      schedule: false,
      superviseIntervalSeconds: opts.superviseSeconds ?? 15,
      monitorIntervalSeconds: opts.superviseSeconds ?? 15,
    });
    boss.on('error', (err) => opts.log?.error({ err }, 'job queue error'));
    await boss.start();
    await boss.createQueue(TOOL_RUN_QUEUE, {
      retryLimit: 2,
      retryDelay: opts.retryDelaySeconds ?? 5,
      retryBackoff: true,
      heartbeatSeconds: opts.heartbeatSeconds ?? 30,
      deleteAfterSeconds: 7 * 86_400,
    });
    return new JobQueue(boss, opts);
  }

  /** Enqueues inside the caller's transaction; grouped by user for the per-user cap. */
  async sendToolRun(message: ToolRunMessage, tx: Queryable): Promise<void> {
    await this.boss.send(TOOL_RUN_QUEUE, message, {
      id: message.jobId,
      group: { id: message.userId },
      expireInSeconds: message.timeLimitSeconds,
      db: { executeSql: async (text: string, values?: unknown[]) => ({ rows: await tx.query(text, values) }) } as never,
    });
  }

  /** Wakes this process's idle workers at once (a send from this process). */
  wake(): void {
    for (const id of this.workerIds) this.boss.notifyWorker(id);
  }

  readonly workerIds: string[] = [];

  async cancelToolRun(jobId: string): Promise<void> {
    await this.boss.cancel(TOOL_RUN_QUEUE, jobId);
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, timeout: 5_000 }).catch((err) => this.opts.log?.warn({ err }, 'queue stop'));
  }
}
