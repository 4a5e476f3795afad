import type { Db, Tx } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import type { EnergyService } from '../energy/energy.service.js';
import type { PricingService, ToolPrice } from '../pricing/pricing.service.js';
import type { AuthenticatedUser } from '../auth/auth.service.js';
import type { JobQueue } from '../../jobs/queue.js';
import { targetRefusal } from '../../../shared/tools.js';
import type { OutputOptions } from '../../../shared/output.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ParsedInput, Refusal, Tool } from '../../tools/tool-definition.js';
import { suspensionMessages } from '../../../shared/account.messages.js';
import { limitMessages } from '../../../shared/limits.messages.js';
import { rateLimited } from '../limits/limiter.js';
import type { ToolMediaPort } from './tool-media.js';
import type { ToolEvents } from './tool-events.js';
import type { ToolRuns } from './tool-runs.service.js';
import * as repo from './tools.repo.js';
import { toolErrors } from './tools.messages.js';
import { checkedIdempotencyKey, requestHashOf } from './idempotency.js';
import { generatedName, isEnded } from './tool-job.js';

/** How long a batch item may wait in line before the sweeper gives up on it (refunded). */
const BATCH_WAIT_ALLOWANCE_SECONDS = 24 * 3600;

/** Checked after validation, before any charge (e.g. the local editor's command language). */
export type InputCheck = (tool: Tool, input: ParsedInput) => Refusal | null;

/**
 * A run coming in: validated, its source checked and priced on the server, then in ONE
 * transaction recorded, charged and enqueued. With an Idempotency-Key a repeat returns the first
 * run; a retry is a new, newly charged run with the same inputs.
 */
export class ToolSubmit {
  constructor(
    private readonly db: Db,
    private readonly energy: EnergyService,
    private readonly pricing: PricingService,
    private readonly queue: JobQueue,
    private readonly media: ToolMediaPort,
    private readonly registry: ToolRegistry,
    private readonly events: ToolEvents,
    private readonly runs: ToolRuns,
    private readonly checkInput: InputCheck = () => null,
  ) {}

  /**
   * Single runs of one user waiting or running at once (0: no cap). With the
   * per-user worker cap, this bounds how much of the queue one user's stuck
   * or slow runs can hold ahead of everyone else's (decision 027).
   */
  maxOpenRunsPerUser = 0;

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
    const refusal = size ? targetRefusal(definition.info, input.output as OutputOptions | undefined, size) : null;
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
    // A single run under the cap is counted under a per-user lock, taken with the account's share
    // lock, so parallel starts cannot all pass one count.
    const capped = !run.batch && this.maxOpenRunsPerUser > 0;
    if (await repo.isSuspended(tx, run.userId, { lockOpenRuns: capped })) throw new AppError('account_suspended', suspensionMessages.signIn);
    if (capped) await this.assertRoomInQueue(tx, run.userId);
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
    const message = { jobId: job.id, userId: run.userId, timeLimitSeconds: tool.timeLimitSeconds, tool: run.definition.endpoint };
    const sentTo = await this.queue.sendToolRun(message, tx, !!run.batch, fetchFirst);
    // An idle worker of this process looks at once, when the job is there to be seen.
    tx.afterCommit(() => this.queue.wake(sentTo));
    return job;
  }

  /** Under the per-user lock isSuspended took. */
  private async assertRoomInQueue(tx: Tx, userId: string): Promise<void> {
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
    await this.events.publish(created);
  }

  private replay(job: repo.ToolJobRow, requestHash: string): repo.ToolJobRow {
    if (job.request_hash !== requestHash) throw new AppError('unprocessable', toolErrors.idempotencyMismatch);
    return job;
  }

  /** Runs a failed or cancelled job again as a new, newly charged run with the same inputs. */
  async retry(user: Pick<AuthenticatedUser, 'id' | 'role'>, jobId: string): Promise<repo.ToolJobRow> {
    const job = await this.runs.findOwned(user.id, jobId);
    if (job.status !== 'failed' && job.status !== 'canceled') throw new AppError('conflict', toolErrors.notRetryable);
    return this.submit(user, job.tool, job.input);
  }

  /**
   * The library's 'retry' on a pending or failed video: while its run is
   * still going there is nothing to do; otherwise the same inputs run again
   * (charged again) and the same library entry waits for the new result.
   */
  async retryLibraryItem(userId: string, item: { id: string; job_id: string | null }): Promise<void> {
    const job = item.job_id ? await this.runs.findOwned(userId, item.job_id) : undefined;
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
}
