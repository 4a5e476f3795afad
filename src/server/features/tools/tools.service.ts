import { createHash } from 'node:crypto';
import type { Db, Tx } from '../../db/db.js';
import { AppError, type ErrorCode } from '../../core/errors.js';
import { decodeOptionalCursor, pageOf, seqKey } from '../../core/cursor.js';
import type { EnergyService } from '../energy/energy.service.js';
import type { PricingService, ToolPrice } from '../pricing/pricing.service.js';
import type { AuthenticatedUser } from '../auth/auth.service.js';
import type { RealtimeHub } from '../../realtime/realtime-hub.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { ToolMediaPort } from './tool-media.js';
import { targetRefusal, type ToolJob } from '../../../shared/tools.js';
import type { OutputOptions } from '../../../shared/output.js';
import type { JobEvent } from '../../../shared/events.schema.js';
import type { Page } from '../../../shared/page.schema.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ParsedInput, Refusal, Tool } from '../../tools/tool-definition.js';
import * as repo from './tools.repo.js';
import type { RunErrorCode } from '../../../shared/admin-jobs.schema.js';
import { limitMessages, suspensionMessages } from '../../../shared/messages.js';
import { rateLimited } from '../limits/limiter.js';

export const toolErrors = {
  idempotencyMismatch: 'This Idempotency-Key was already used for a different request',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1-200 visible characters',
  notCancellable: 'This run has already finished',
  notRetryable: 'Only a failed or cancelled run can be retried',
  notFound: 'Run not found',
  stillRunning: 'Still working on it: the result will appear in your library when it is done',
  timedOut: 'The run took too long and was stopped. Your ENERGY has been refunded.',
  cancelled: 'The run was cancelled. Your ENERGY has been refunded.',
  workerLost: 'The run was interrupted. Your ENERGY has been refunded.',
  unknownTool: 'This tool is no longer available. Your ENERGY has been refunded.',
} as const;

/** Events on GET /api/events for the user's runs. */
export const JOB_EVENT = 'job';

/** How long a batch item may wait in line before the sweeper gives up on it (refunded). */
const BATCH_WAIT_ALLOWANCE_SECONDS = 24 * 3600;


/** Told after a run ended (any process that settled it), once committed. */
export type RunEndListener = (job: repo.ToolJobRow) => void | Promise<void>;

/** Checked after validation, before any charge (e.g. the local editor's command language). */
export type InputCheck = (tool: Tool, input: ParsedInput) => Refusal | null;

/** Safety poll while waiting for a job; end events normally wake the wait at once. */
const WAIT_POLL_MS = 5_000;

/** A client's Idempotency-Key, trimmed; null when none was sent. */
export function checkedIdempotencyKey(raw: string | undefined): string | null {
  const key = raw?.trim() || null;
  if (key !== null && (key.length > 200 || !/^[\x21-\x7e]+$/.test(key))) {
    throw new AppError('validation', toolErrors.idempotencyKeyInvalid);
  }
  return key;
}

/** What an Idempotency-Key replay must match: the tool and its parsed input, key order aside. */
export const requestHashOf = (endpoint: string, input: unknown): string =>
  createHash('sha256').update(`${endpoint}\n${canonical(input)}`).digest('hex');

const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );

/**
 * Tool runs: validate, price on the server, and in ONE transaction charge,
 * record the job and enqueue it. Settling (success, failure, cancel, sweep)
 * is conditional on the job still being open, so each run ends once and a
 * failed run is refunded once.
 */
export class ToolsService {
  private readonly finished = new Map<string, Set<() => void>>();
  private readonly endListeners: RunEndListener[] = [];

  constructor(
    private readonly db: Db,
    private readonly energy: EnergyService,
    private readonly pricing: PricingService,
    private readonly queue: JobQueue,
    readonly media: ToolMediaPort,
    private readonly realtime: RealtimeHub,
    readonly registry: ToolRegistry,
    private readonly checkInput: InputCheck = () => null,
  ) {}

  /**
   * Single runs of one user waiting or running at once (0: no cap). With the
   * per-user worker cap, this bounds how much of the queue one user's stuck
   * or slow runs can hold ahead of everyone else's (decision 027).
   */
  maxOpenRunsPerUser = 0;

  onRunEnd(listener: RunEndListener): void {
    this.endListeners.push(listener);
  }

  parse(tool: Tool, body: unknown): ParsedInput {
    const parsed = tool.parseInput(body);
    if (!parsed.ok) throw new AppError('validation', parsed.message);
    const refusal = this.checkInput(tool, parsed.input);
    if (typeof refusal === 'string') throw new AppError('validation', refusal);
    if (refusal) throw new AppError('validation', refusal.message, refusal.details);
    return parsed.input;
  }

  /**
   * Refuses (4xx, nothing charged) a source the run could only fail on (see ToolMediaPort.checkSource),
   * and a target size the tool cannot make from it, when the source's size is known.
   */
  async checkSource(userId: string, definition: Tool, input: ParsedInput): Promise<void> {
    const size = await this.media.checkSource(userId, definition.sourceOf(input), definition.info.input);
    const refusal = size ? targetRefusal(definition.endpoint, input.output as OutputOptions | undefined, size) : null;
    if (refusal) throw new AppError('validation', refusal);
  }

  /** Charges and enqueues a run; with an Idempotency-Key, a repeat returns the first job. */
  async submit(
    user: Pick<AuthenticatedUser, 'id' | 'role'>,
    endpoint: string,
    body: unknown,
    idempotencyKey?: string,
    opts: {
      pendingItemId?: string;
      /** Where to POST the run's end (already checked against the address policy). */
      webhookUrl?: string;
      /** The personal API key that made the call, for the ledger. */
      apiKeyId?: string;
    } = {},
  ): Promise<repo.ToolJobRow> {
    const definition = this.registry.get(endpoint);
    const tool = definition.info;
    const input = this.parse(definition, body);
    const key = checkedIdempotencyKey(idempotencyKey);
    const requestHash = requestHashOf(endpoint, input);
    if (key) {
      const existing = await repo.findByIdempotencyKey(this.db, user.id, key);
      if (existing) return this.replay(existing, requestHash);
    }
    await this.checkSource(user.id, definition, input);

    const created = await this.db.transaction(async (tx) => {
      const price = await this.pricing.priceFor({ role: user.role }, tool.pricing, tx);
      return this.chargeRun(tx, {
        userId: user.id,
        definition,
        input,
        price,
        idempotencyKey: key,
        requestHash,
        webhookUrl: opts.webhookUrl,
        apiKeyId: opts.apiKeyId,
      });
    });
    if (!created) return this.replay((await repo.findByIdempotencyKey(this.db, user.id, key!))!, requestHash);

    await this.announce(created, opts.pendingItemId);
    return created;
  }

  /**
   * Inside the caller's transaction: records the run, charges it on the
   * ledger and enqueues it (a batch item on the batch queue). Null when the
   * Idempotency-Key won a race a moment ago. Call announce() after commit.
   */
  async chargeRun(
    tx: Tx,
    run: {
      userId: string;
      definition: Tool;
      input: ParsedInput;
      price: ToolPrice;
      idempotencyKey: string | null;
      requestHash: string;
      webhookUrl?: string;
      apiKeyId?: string;
      batch?: { id: string; position: number; description: string };
    },
  ): Promise<repo.ToolJobRow | null> {
    const tool = run.definition.info;
    if (await repo.isSuspended(tx, run.userId)) throw new AppError('account_suspended', suspensionMessages.signIn);
    if (!run.batch && this.maxOpenRunsPerUser > 0) await this.assertRoomInQueue(tx, run.userId);
    const job = await repo.insertJob(tx, {
      userId: run.userId,
      tool: run.definition.endpoint,
      input: run.input,
      cost: run.price.cost,
      idempotencyKey: run.idempotencyKey,
      requestHash: run.requestHash,
      // A batch item waits its turn behind the others: its limit starts again when it starts.
      timeLimitSeconds: run.batch ? tool.timeLimitSeconds + BATCH_WAIT_ALLOWANCE_SECONDS : tool.timeLimitSeconds,
      webhookUrl: run.webhookUrl,
      apiKeyId: run.apiKeyId,
      batch: run.batch,
    });
    if (!job) return null; // the same key won a race a moment ago
    await this.energy.spend(
      {
        userId: run.userId,
        cost: run.price.cost,
        toolName: run.price.displayName,
        description: run.batch?.description ?? tool.title,
        jobId: job.id,
        tool: tool.pricing,
      },
      tx,
    );
    // A source on another server is fetched before the run takes a worker slot (decision 027).
    const fetchFirst = this.media.isRemoteSource?.(run.definition.sourceOf(run.input)) ?? false;
    await this.queue.sendToolRun({ jobId: job.id, userId: run.userId, timeLimitSeconds: tool.timeLimitSeconds }, tx, !!run.batch, fetchFirst);
    // This process's idle workers look at once, when the job is there to be seen.
    tx.afterCommit(() => this.queue.wake());
    return job;
  }

  /** Counted under a per-user lock, so parallel starts cannot all pass one count. */
  private async assertRoomInQueue(tx: Tx, userId: string): Promise<void> {
    await repo.lockOpenRunsOf(tx, userId);
    const open = await repo.countOpenSingleRuns(tx, userId);
    if (open >= this.maxOpenRunsPerUser) throw rateLimited(limitMessages.openRuns(this.maxOpenRunsPerUser), 5);
  }

  /** After the run's transaction committed: its pending library entry (videos) and its first event. */
  async announce(created: repo.ToolJobRow, pendingItemId?: string): Promise<void> {
    const definition = this.registry.get(created.tool);
    const tool = definition.info;
    if (pendingItemId) {
      await this.media.reattachPending?.(created.user_id, pendingItemId, created.id);
    } else if (definition.hasPending && this.media.createPending) {
      const prompt = definition.pendingPrompt(created.input as ParsedInput) ?? '';
      await this.media.createPending({
        userId: created.user_id,
        jobId: created.id,
        originalName: generatedName(tool.output === 'video' ? 'Video' : 'Image', prompt),
        generationType: tool.label,
        prompt,
      });
    }
    await this.publish(created);
  }

  private replay(job: repo.ToolJobRow, requestHash: string): repo.ToolJobRow {
    if (job.request_hash !== requestHash) throw new AppError('unprocessable', toolErrors.idempotencyMismatch);
    return job;
  }

  /**
   * Resolves when the job has ended or the wait times out (the job goes on
   * regardless). Woken by the job's end event from any process; a slow poll
   * covers a missed event.
   */
  async waitForEnd(jobId: string, timeoutMs: number, signal?: AbortSignal): Promise<repo.ToolJobRow> {
    this.listenForEnds();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await repo.findJob(this.db, jobId);
      if (!job) throw new AppError('not_found', toolErrors.notFound);
      if (isEnded(job.status) || Date.now() >= deadline || signal?.aborted) return job;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          const set = this.finished.get(jobId);
          set?.delete(wake);
          if (set?.size === 0) this.finished.delete(jobId);
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(WAIT_POLL_MS, Math.max(10, deadline - Date.now())));
        let set = this.finished.get(jobId);
        if (!set) this.finished.set(jobId, (set = new Set()));
        set.add(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
  }

  private listening = false;

  private listenForEnds(): void {
    if (this.listening) return;
    this.listening = true;
    this.realtime
      .ready()
      .then(() =>
        this.realtime.listen((event) => {
          const data = event.data as Partial<JobEvent> | null;
          if (event.type !== JOB_EVENT || !data?.id || !data.status || !isEnded(data.status)) return;
          for (const wake of this.finished.get(data.id) ?? []) wake();
        }),
      )
      .catch(() => {
        this.listening = false;
      });
  }

  /** The spec's response fields for a finished job (fresh signed URLs), plus job_id. */
  async toResponse(job: repo.ToolJobRow): Promise<{ status: 200 | 202 | 422; body: Record<string, unknown> }> {
    const tool = this.registry.get(job.tool);
    if (job.status === 'succeeded' && job.result) {
      const r = job.result;
      const url = job.library_item_id ? await this.media.itemUrl(job.user_id, job.library_item_id) : null;
      const originalItem = typeof r.original_item_id === 'string' ? r.original_item_id : null;
      const storedOriginal = typeof r.original_url === 'string' ? r.original_url : '';
      const originalUrl = (originalItem && (await this.media.itemUrl(job.user_id, originalItem).catch(() => null))) || storedOriginal;
      const { model, fields } = tool.respond(r, { url, originalUrl });
      return { status: 200, body: { job_id: job.id, library_item_id: job.library_item_id, energy_used: job.cost, model, ...fields } };
    }
    if (job.status === 'failed' || job.status === 'canceled') {
      // Every failed or cancelled run was refunded in the same transaction that ended it.
      return {
        status: 422,
        body: { error: job.error || tool.info.failure, code: 'tool_failed' satisfies ErrorCode, job_id: job.id, status: job.status, refunded: true, energy_refunded: job.cost },
      };
    }
    // Still running when the wait ended: 202 with the job to follow.
    return { status: 202, body: { job_id: job.id, status: job.status, message: toolErrors.stillRunning } };
  }

  async get(userId: string, jobId: string): Promise<ToolJob> {
    const job = isUuid(jobId) ? await repo.findJobOfUser(this.db, userId, jobId) : undefined;
    if (!job) throw new AppError('not_found', toolErrors.notFound);
    return this.withFreshOriginal(job);
  }

  /**
   * A run's result names its source by library item: the stored `original_url` is replaced by a
   * fresh link to that item (a stored signed link expires, and after a move to S3 it pointed at
   * the old local file route). A source that is gone or was not ours keeps what was stored.
   */
  private async withFreshOriginal(job: repo.ToolJobRow): Promise<ToolJob> {
    const view = toToolJob(job);
    const r = job.result;
    const itemId = r && typeof r.original_item_id === 'string' ? r.original_item_id : null;
    if (!r || !itemId || typeof r.original_url !== 'string') return view;
    const fresh = await this.media.itemUrl(job.user_id, itemId).catch(() => null);
    return fresh ? { ...view, result: { ...r, original_url: fresh } } : view;
  }

  async findOwned(userId: string, jobId: string): Promise<repo.ToolJobRow> {
    const job = isUuid(jobId) ? await repo.findJobOfUser(this.db, userId, jobId) : undefined;
    if (!job) throw new AppError('not_found', toolErrors.notFound);
    return job;
  }

  async list(userId: string, limit = 20, cursor?: string | null): Promise<Page<ToolJob>> {
    const size = Math.min(Math.max(Math.trunc(limit) || 20, 1), 100);
    const before = decodeOptionalCursor(cursor, seqKey)?.[0];
    const page = pageOf(await repo.listJobs(this.db, userId, size + 1, before), size, (job) => [Number(job.seq)]);
    return { items: await Promise.all(page.rows.map((job) => this.withFreshOriginal(job))), next_cursor: page.next_cursor };
  }

  /** Cancels a queued or running job of the user: refunded once; a running worker stops. */
  /** Cancels a run that has not started yet (refunded once, whoever else cancels it too); false when it had. */
  async cancelQueued(jobId: string): Promise<boolean> {
    const ended = await this.settleFailure(jobId, 'canceled', toolErrors.cancelled, { from: ['queued'] });
    if (ended) await this.queue.cancelToolRun(jobId, ended.batch_id !== null).catch(() => {});
    return !!ended;
  }

    async cancel(userId: string, jobId: string): Promise<ToolJob> {
    await this.findOwned(userId, jobId);
    const ended = await this.settleFailure(jobId, 'canceled', toolErrors.cancelled);
    if (!ended) throw new AppError('conflict', toolErrors.notCancellable);
    await this.queue.cancelToolRun(jobId, ended.batch_id !== null).catch(() => {});
    return toToolJob(ended);
  }

  /** A suspended account's runs that have not ended: each cancelled and refunded once. Returns how many. */
  async cancelOpenRunsOf(userId: string): Promise<number> {
    let n = 0;
    for (const { id } of await repo.openJobsOf(this.db, userId)) {
      const ended = await this.settleFailure(id, 'canceled', suspensionMessages.runCancelled, { code: 'suspended' });
      if (!ended) continue;
      await this.queue.cancelToolRun(id, ended.batch_id !== null).catch(() => {});
      n += 1;
    }
    return n;
  }

  /** Stops a run whose result is no longer wanted (refunded); one that has ended already stays as it is. */
  async stopRun(userId: string, jobId: string): Promise<void> {
    await this.cancel(userId, jobId).catch(() => {}); // ended already (or gone): nothing to stop
  }

  /** Runs a failed or cancelled job again as a new, newly charged run with the same inputs. */
  async retry(user: Pick<AuthenticatedUser, 'id' | 'role'>, jobId: string): Promise<repo.ToolJobRow> {
    const job = await this.findOwned(user.id, jobId);
    if (job.status !== 'failed' && job.status !== 'canceled') throw new AppError('conflict', toolErrors.notRetryable);
    return this.submit(user, job.tool, job.input);
  }

  /**
   * The library's 'retry' on a pending or failed video: while its run is
   * still going there is nothing to do; otherwise the same inputs run again
   * (charged again) and the same library entry waits for the new result.
   */
  async retryLibraryItem(userId: string, item: { id: string; job_id: string | null }): Promise<void> {
    const job = item.job_id ? await this.findOwned(userId, item.job_id) : undefined;
    if (!job) throw new AppError('conflict', toolErrors.notRetryable);
    if (!isEnded(job.status)) return;
    const owner = (await repo.findRunner(this.db, userId))!;
    try {
      await this.submit(owner, job.tool, job.input, undefined, { pendingItemId: item.id });
    } catch (err) {
      await this.media.failPending?.(userId, job.id, err instanceof Error ? err.message : this.registry.get(job.tool).info.failure).catch(() => {});
      throw err;
    }
  }

  // ---- used by the worker and the sweeper ----

  peek(jobId: string) {
    return repo.findJob(this.db, jobId);
  }

  claim(jobId: string, provider: string, timeLimitSeconds: number) {
    return repo.claimJob(this.db, jobId, provider, timeLimitSeconds);
  }

  /** Hands a running job back to the queue at shutdown: no refund, and the retry charges nothing. */
  async release(job: repo.ToolJobRow): Promise<boolean> {
    const row = await repo.releaseJob(this.db, job.id, job.attempts);
    if (row) await this.publish(row);
    return !!row;
  }

  async progress(job: repo.ToolJobRow, stage: string, fraction: number): Promise<void> {
    await repo.saveProgress(this.db, job.id, stage, fraction);
    await this.realtime
      .publish(JOB_EVENT, job.user_id, {
        id: job.id,
        tool: job.tool,
        status: 'running',
        progress_stage: stage,
        progress_fraction: fraction,
        ...(job.batch_id ? { batch_id: job.batch_id } : {}),
      } satisfies JobEvent)
      .catch(() => {});
  }

  saveRemoteRequestId(jobId: string, requestId: string) {
    return repo.saveRemoteRequestId(this.db, jobId, requestId);
  }

  async isStillRunning(jobId: string): Promise<boolean> {
    return (await repo.jobStatus(this.db, jobId)) === 'running';
  }

  /** Success wins only if the job is still running; otherwise the saved item is discarded. */
  async settleSuccess(job: repo.ToolJobRow, result: Record<string, unknown>, libraryItemId: string): Promise<boolean> {
    const done = await repo.markSucceeded(this.db, job.id, result, libraryItemId);
    if (!done) {
      await this.media.discardResult(job.user_id, libraryItemId).catch(() => {});
      return false;
    }
    await this.afterEnd(done);
    return true;
  }

  /**
   * Fails or cancels an open job (only a queued one when asked) and refunds
   * it, in one transaction; null when it had ended (or started) already.
   */
  async settleFailure(
    jobId: string,
    status: 'failed' | 'canceled',
    error: string,
    opts: { from?: repo.JobStatus[]; code?: RunErrorCode } = {},
  ): Promise<repo.ToolJobRow | null> {
    const code = opts.code ?? (status === 'canceled' ? 'cancelled' : 'internal');
    const ended = await this.db.transaction(async (tx) => {
      const row = await repo.markEnded(tx, jobId, status, error, opts.from ?? ['queued', 'running'], code);
      if (!row) return null;
      const title = this.registry.find(row.tool)?.info.title ?? row.tool;
      await this.energy.refund(jobId, `Refund: ${title} (${status === 'canceled' ? 'cancelled' : 'failed'})`, tx);
      tx.afterCommit(async () => {
        if (this.registry.find(row.tool)?.hasPending) await this.media.failPending?.(row.user_id, row.id, error).catch(() => {});
        await this.afterEnd(row);
      });
      return row;
    });
    return ended;
  }

  /** Fails and refunds jobs stuck past their deadline. Safe to run anywhere, any number of times. */
  async sweep(graceSeconds = 60): Promise<number> {
    let n = 0;
    for (const { id } of await repo.findOverdueJobs(this.db, graceSeconds)) {
      if (await this.settleFailure(id, 'failed', toolErrors.timedOut, { code: 'overdue' })) n += 1;
    }
    return n;
  }

  private async afterEnd(job: repo.ToolJobRow): Promise<void> {
    await this.discardStagedSource(job);
    for (const wake of this.finished.get(job.id) ?? []) wake();
    await this.publish(job);
    for (const listener of this.endListeners) await Promise.resolve(listener(job)).catch(() => {});
  }

  /** The fetched copy of a remote source lives as long as its run. */
  private async discardStagedSource(job: repo.ToolJobRow): Promise<void> {
    const definition = this.registry.find(job.tool);
    if (!definition || !this.media.discardStaged || !this.media.isRemoteSource) return;
    try {
      if (this.media.isRemoteSource(definition.sourceOf(job.input as ParsedInput))) await this.media.discardStaged(job.user_id, job.id);
    } catch {
      // An input that no longer parses had nothing staged; a storage hiccup leaves a small file behind.
    }
  }

  /** Whether a run is still waiting for a worker (not cancelled, swept or started meanwhile). */
  async isQueued(jobId: string): Promise<boolean> {
    return (await repo.jobStatus(this.db, jobId)) === 'queued';
  }

  private async publish(job: repo.ToolJobRow): Promise<void> {
    await this.realtime
      .publish(JOB_EVENT, job.user_id, {
        id: job.id,
        tool: job.tool,
        status: job.status,
        progress_stage: job.progress_stage,
        progress_fraction: job.progress_fraction,
        error: job.error,
        library_item_id: job.library_item_id,
        ...(job.batch_id ? { batch_id: job.batch_id } : {}),
      } satisfies JobEvent)
      .catch(() => {});
  }
}

export function isEnded(status: repo.JobStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled';
}

/** requirements §5: a generated item's name is its type plus the first 50 characters of the prompt. */
export function generatedName(type: string, prompt: string): string {
  const text = prompt.replace(/\s+/g, ' ').trim().slice(0, 50);
  return text ? `${type} ${text}` : type;
}

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

export function toToolJob(job: repo.ToolJobRow): ToolJob {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    id: job.id,
    tool: job.tool,
    status: job.status,
    cost: job.cost,
    progress_stage: job.progress_stage,
    progress_fraction: job.progress_fraction,
    error: job.error,
    result: job.result,
    input: job.input,
    library_item_id: job.library_item_id,
    created_at: iso(job.created_at)!,
    started_at: iso(job.started_at),
    finished_at: iso(job.finished_at),
  };
}
