import type { Db } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import { decodeOptionalCursor, pageOf, seqKey } from '../../core/cursor.js';
import type { Page } from '../../../shared/page.schema.js';
import { adminJobMessages, type AdminJob, type AdminJobAction, type FailureRates, type AdminCharts } from '../../../shared/admin-jobs.schema.js';
import type { AuthenticatedUser } from '../auth/auth.service.js';
import type { Tools } from '../tools/create-tools.js';
import type { Role } from '../../../shared/constants.js';
import { insertAudit } from '../admin/admin.repo.js';
import { assertAdmin } from '../admin/admin.service.js';
import * as repo from './admin-jobs.repo.js';

export const JOB_AUDIT_ACTIONS = { retry: 'retry_job', cancel: 'cancel_job' } as const;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const between = (a: Date | null, b: Date | null) => (a && b ? Math.max(0, new Date(b).getTime() - new Date(a).getTime()) : null);

/**
 * Admin > Jobs: every user's runs, and the operator's two actions on one. Both go through the
 * tool rooms (submit, settle), as the owner's own Retry and Cancel do, so charging and refunding stay in one
 * place: a cancel refunds, a retry is a new run charged to its owner (the failed one was refunded).
 */
export class AdminJobsService {
  constructor(
    private readonly db: Db,
    private readonly tools: Pick<Tools, 'submit' | 'settle' | 'registry'>,
  ) {}

  async list(admin: AuthenticatedUser, filters: repo.JobFilters, limit = 50, cursor?: string): Promise<Page<AdminJob>> {
    assertAdmin(admin);
    if (filters.from && filters.to && filters.from >= filters.to) throw new AppError('validation', adminJobMessages.badTime);
    const before = decodeOptionalCursor(cursor, seqKey)?.[0];
    const page = pageOf(await repo.listJobs(this.db, filters, limit + 1, before), limit, (r) => [Number(r.seq)]);
    return {
      items: page.rows.map((r) => ({
        id: r.id,
        user_id: r.user_id,
        user_email: r.user_email,
        tool: r.tool,
        status: r.status,
        provider: r.provider,
        cost: r.cost,
        attempts: r.attempts,
        error: r.error,
        error_code: r.error_code,
        batch_id: r.batch_id,
        created_at: iso(r.created_at)!,
        started_at: iso(r.started_at),
        finished_at: iso(r.finished_at),
        wait_ms: between(r.created_at, r.started_at),
        run_ms: between(r.started_at, r.finished_at),
      })),
      next_cursor: page.next_cursor,
    };
  }

  async failureRates(admin: AuthenticatedUser): Promise<FailureRates> {
    assertAdmin(admin);
    const rows = await repo.failureRates(this.db);
    return {
      tools: rows.map((r) => ({ tool: r.tool, hour: { runs: r.hour_runs, failed: r.hour_failed }, day: { runs: r.day_runs, failed: r.day_failed } })),
      generated_at: new Date().toISOString(),
    };
  }

  /**
   * The dashboard's charts: ENERGY sold and spent (net of refunds), and runs and failures per tool,
   * per UTC day for the last `days` days including today; every day and every known tool present.
   */
  async charts(admin: AuthenticatedUser, days: number, now = new Date()): Promise<AdminCharts> {
    assertAdmin(admin);
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const since = new Date(today - (days - 1) * 86_400_000);
    const dayList = Array.from({ length: days }, (_, i) => new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10));
    const index = new Map(dayList.map((d, i) => [d, i]));
    const zeros = () => dayList.map(() => 0);
    const [ledger, runs] = await Promise.all([repo.energyByDay(this.db, since), repo.runsByDay(this.db, since)]);
    const sold = zeros();
    const spent = zeros();
    for (const r of ledger) {
      const i = index.get(r.day);
      if (i === undefined) continue;
      if (r.type === 'purchase') sold[i]! += r.energy;
      else if (r.type === 'spend') spent[i]! += r.energy;
      else spent[i]! -= r.energy;
    }
    const tools = new Map<string, { runs: number[]; failed: number[] }>();
    for (const tool of this.tools.registry.list) tools.set(tool.info.endpoint, { runs: zeros(), failed: zeros() });
    for (const r of runs) {
      const i = index.get(r.day);
      if (i === undefined) continue;
      const series = tools.get(r.tool) ?? tools.set(r.tool, { runs: zeros(), failed: zeros() }).get(r.tool)!;
      series.runs[i]! += r.runs;
      series.failed[i]! += r.failed;
    }
    return {
      days: dayList,
      energy: { sold, spent },
      tools: [...tools].map(([tool, series]) => ({ tool, ...series })),
      generated_at: now.toISOString(),
    };
  }

  /** Runs a failed or cancelled job again for its owner, as their own Retry would (and charged so). */
  async retry(admin: AuthenticatedUser, jobId: string): Promise<AdminJobAction> {
    assertAdmin(admin);
    const job = await this.find(jobId);
    if (job.status !== 'failed' && job.status !== 'canceled') throw new AppError('conflict', adminJobMessages.notRetryable);
    const created = await this.tools.submit.retry({ id: job.user_id, role: job.role as Role }, jobId);
    await insertAudit(this.db, {
      adminId: admin.id,
      action: JOB_AUDIT_ACTIONS.retry,
      target: jobId,
      oldValue: { status: job.status, tool: job.tool, user_id: job.user_id },
      newValue: { new_job_id: created.id, cost: created.cost },
    });
    return { job_id: jobId, status: job.status, new_job_id: created.id };
  }

  /** Stops a queued or running job; it is refunded like any cancelled run. */
  async cancel(admin: AuthenticatedUser, jobId: string): Promise<AdminJobAction> {
    assertAdmin(admin);
    const job = await this.find(jobId);
    if (job.status !== 'queued' && job.status !== 'running') throw new AppError('conflict', adminJobMessages.notCancellable);
    const ended = await this.tools.settle.cancel(job.user_id, jobId).catch((err: unknown) => {
      // It ended between the look and the cancel.
      if (err instanceof AppError && err.code === 'conflict') throw new AppError('conflict', adminJobMessages.notCancellable);
      throw err;
    });
    await insertAudit(this.db, {
      adminId: admin.id,
      action: JOB_AUDIT_ACTIONS.cancel,
      target: jobId,
      oldValue: { status: job.status, tool: job.tool, user_id: job.user_id },
      newValue: { status: ended.status },
    });
    return { job_id: jobId, status: 'canceled' };
  }

  private async find(jobId: string) {
    const job = UUID_RE.test(jobId) ? await repo.findJob(this.db, jobId) : undefined;
    if (!job) throw new AppError('not_found', adminJobMessages.notFound);
    return job;
  }
}
