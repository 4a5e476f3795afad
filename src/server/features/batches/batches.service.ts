import type { Readable } from 'node:stream';
import type { Db } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import type { AuthenticatedUser } from '../auth/auth.service.js';
import type { EnergyService } from '../energy/energy.service.js';
import type { PricingService, ToolPrice } from '../pricing/pricing.service.js';
import type { LibraryItem } from '../library/library-store.js';
import type { Library } from '../library/create-library.js';
import type { EstimatesService } from '../estimates/estimates.service.js';
import type { RealtimeHub } from '../../realtime/realtime-hub.js';
import { checkedIdempotencyKey, requestHashOf } from '../tools/idempotency.js';
import { toolErrors } from '../tools/tools.messages.js';
import type { Tools } from '../tools/create-tools.js';
import type { ToolSubmit } from '../tools/tool-submit.service.js';
import type { ToolJobRow } from '../tools/tools.repo.js';
import type { ParsedInput, Tool } from '../../tools/tool-definition.js';
import { targetRefusal, type ToolInfo } from '../../../shared/tools.js';
import type { OutputOptions } from '../../../shared/output.js';
import {
  BATCH_EVENT,
  batchMessages,
  type Batch,
  type BatchEstimate,
  type BatchItem,
  type BatchSummary,
} from '../../../shared/batch.schema.js';
import { decodeOptionalCursor, pageOf, seqKey } from '../../core/cursor.js';
import type { CountedPage } from '../../../shared/page.schema.js';
import type { ServerEventData } from '../../../shared/events.schema.js';
import { batchArchive } from './batch-archive.js';
import { currentRuns, secondsPerItem, sourceItemId, summarize } from './batch-view.js';
import * as repo from './batches.repo.js';

type Caller = Pick<AuthenticatedUser, 'id' | 'role'>;

export interface BatchInput {
  tool: string;
  settings: Record<string, unknown>;
  items: string[];
}

interface Log {
  warn: (obj: unknown, msg?: string) => void;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Batch Processing: one tool over many library images. Each image is an
 * ordinary tool run (charged, refunded and settled exactly like a single
 * run, through the tool rooms submit and settle); a batch is created, charged and queued
 * in one transaction, or not at all.
 */
export class BatchesService {
  constructor(
    private readonly db: Db,
    private readonly tools: Pick<Tools, 'submit' | 'settle' | 'registry'>,
    private readonly pricing: PricingService,
    private readonly energy: EnergyService,
    private readonly library: Pick<Library, 'quota' | 'queries'>,
    private readonly realtime: RealtimeHub,
    private readonly estimates: EstimatesService,
    private readonly opts: { workersPerUser: number; log: Log },
  ) {
    // The batch page refreshes its counts when an item ends, in whichever process settled it.
    tools.settle.onRunEnd(async (job) => {
      if (!job.batch_id) return;
      const summary = await this.summaryOf(job.user_id, job.batch_id);
      // The settings (a long prompt) are left out: events are small, and the page has them.
      if (summary) await this.realtime.publish(BATCH_EVENT, job.user_id, { ...summary, settings: undefined } satisfies ServerEventData<typeof BATCH_EVENT>);
    });
  }

  /** What the batch would cost the caller now, and how long it should take here. */
  async estimate(user: Caller, input: BatchInput): Promise<BatchEstimate> {
    const definition = this.toolOf(input.tool);
    const price = await this.pricing.priceFor({ role: user.role }, definition.info.pricing);
    const balance = await this.energy.balance(user.id);
    const n = input.items.length;
    const perItem = await this.expectedSeconds(input.tool);
    return {
      tool: input.tool,
      item_count: n,
      unit_cost: price.cost,
      total_cost: price.cost * n,
      balance,
      affordable_count: affordable(price.cost, balance, n),
      estimate_seconds: perItem === null ? null : Math.round((perItem * n) / Math.max(1, Math.min(this.opts.workersPerUser, n))),
    };
  }

  /** Validates every item as its own run would, then charges and queues them all in one transaction. */
  async create(user: Caller, input: BatchInput, idempotencyKey?: string, apiKeyId?: string): Promise<Batch> {
    const definition = this.toolOf(input.tool);
    const { image_url: _ignored, ...settings } = input.settings;
    const runs = input.items.map((id) => this.tools.submit.parse(definition, { ...settings, image_url: id }));
    const key = checkedIdempotencyKey(idempotencyKey);
    const requestHash = requestHashOf(`batch:${input.tool}`, { settings, items: input.items });
    if (key) {
      const existing = await repo.findByIdempotencyKey(this.db, user.id, key);
      if (existing) return this.replay(existing, requestHash);
    }
    await this.assertLibraryImages(user.id, input.items, definition.info, settings.output as OutputOptions | undefined);
    await this.library.quota.assertRoomForResults(user.id);

    const created = await this.db.transaction(async (tx) => {
      const price = await this.pricing.priceFor({ role: user.role }, definition.info.pricing, tx);
      await this.assertAffordable(user.id, price, runs.length, tx);
      const batch = await repo.insertBatch(tx, { userId: user.id, tool: input.tool, settings, itemCount: runs.length, idempotencyKey: key, requestHash });
      if (!batch) return null; // the same key won a race a moment ago
      const jobs: ToolJobRow[] = [];
      for (const [position, run] of runs.entries()) {
        jobs.push(await this.chargeItem(tx, user.id, definition, run, price, batch.id, position, apiKeyId));
      }
      return { batch, jobs };
    });
    if (!created) return this.replay((await repo.findByIdempotencyKey(this.db, user.id, key!))!, requestHash);
    for (const job of created.jobs) await this.tools.submit.announce(job);
    return this.get(user.id, created.batch.id);
  }

  async get(userId: string, id: string): Promise<Batch> {
    const batch = await this.mustFind(userId, id);
    const jobs = await repo.jobsOfBatches(this.db, userId, [batch.id]);
    const summary = await this.summarizeWithEstimate(batch, jobs);
    return { ...summary, items: await this.itemsOf(userId, currentRuns(jobs)) };
  }

  async list(userId: string, limit: number, cursor?: string): Promise<CountedPage<BatchSummary>> {
    const before = decodeOptionalCursor(cursor, seqKey);
    const [rows, total] = await Promise.all([repo.listBatches(this.db, userId, limit + 1, before?.[0]), repo.countBatches(this.db, userId)]);
    const page = pageOf(rows, limit, (b) => [Number(b.seq)]);
    const jobs = page.rows.length ? await repo.jobsOfBatches(this.db, userId, page.rows.map((b) => b.id)) : [];
    const items = await Promise.all(page.rows.map((b) => this.summarizeWithEstimate(b, jobs.filter((j) => j.batch_id === b.id))));
    return { items, next_cursor: page.next_cursor, total };
  }

  /**
   * Cancels every item still waiting (each refunded once, whoever else is
   * cancelling it at the same time); items already running finish.
   */
  async cancelRemaining(userId: string, id: string): Promise<Batch> {
    const batch = await this.mustFind(userId, id);
    const queued = await repo.queuedJobIds(this.db, userId, batch.id);
    if (!queued.length) throw new AppError('conflict', batchMessages.nothingToCancel);
    for (const jobId of queued) await this.tools.settle.cancelQueued(jobId);
    return this.get(userId, batch.id);
  }

  /** Runs every failed item again, each charged again, in the same batch and position. */
  async retryFailed(user: Caller, id: string, apiKeyId?: string): Promise<Batch> {
    const batch = await this.mustFind(user.id, id);
    const definition = this.toolOf(batch.tool);
    // An image deleted since would only fail again: refused before anything is charged.
    for (const old of await repo.lockFailedJobs(this.db, user.id, batch.id, false)) await this.tools.submit.checkSource(user.id, definition, old.input);
    const created = await this.db.transaction(async (tx) => {
      const failed = await repo.lockFailedJobs(tx, user.id, batch.id);
      if (!failed.length) throw new AppError('conflict', batchMessages.nothingToRetry);
      const price = await this.pricing.priceFor({ role: user.role }, definition.info.pricing, tx);
      await this.assertAffordable(user.id, price, failed.length, tx);
      const jobs: ToolJobRow[] = [];
      for (const old of failed) {
        const job = await this.chargeItem(tx, user.id, definition, old.input, price, batch.id, old.batch_position ?? 0, apiKeyId);
        await repo.markRetried(tx, old.id, job.id);
        jobs.push(job);
      }
      return jobs;
    });
    for (const job of created) await this.tools.submit.announce(job);
    return this.get(user.id, batch.id);
  }

  /** Every succeeded result as one ZIP stream, named after the images they were made from. */
  async download(userId: string, id: string): Promise<{ stream: Readable; fileName: string }> {
    const batch = await this.mustFind(userId, id);
    const done = currentRuns(await repo.jobsOfBatches(this.db, userId, [batch.id])).filter((j) => j.status === 'succeeded' && j.library_item_id);
    if (!done.length) throw new AppError('not_found', batchMessages.nothingToDownload);
    const sources = await this.library.queries.getMany(userId, done.map(sourceItemId).filter((s): s is string => !!s));
    const entries = done.map((job) => ({
      sourceName: sources.get(sourceItemId(job) ?? '')?.original_name ?? null,
      open: () => this.library.queries.openReady(userId, job.library_item_id!),
    }));
    const day = new Date(batch.created_at).toISOString().slice(0, 10);
    return { stream: batchArchive(entries, this.opts.log), fileName: `batch-${batch.tool.replace(/^fal-/, '')}-${day}-${batch.id.slice(0, 8)}.zip` };
  }

  // --------------------------------------------------------------- helpers

  private toolOf(endpoint: string): Tool {
    const definition = this.tools.registry.find(endpoint);
    if (!definition?.batch) throw new AppError('validation', batchMessages.toolRequired);
    return definition;
  }

  private async mustFind(userId: string, id: string): Promise<repo.BatchRow> {
    const batch = UUID_RE.test(id) ? await repo.findBatch(this.db, userId, id) : undefined;
    if (!batch) throw new AppError('not_found', batchMessages.notFound);
    return batch;
  }

  private async replay(batch: repo.BatchRow, requestHash: string): Promise<Batch> {
    if (batch.request_hash !== requestHash) throw new AppError('unprocessable', toolErrors.idempotencyMismatch);
    return this.get(batch.user_id, batch.id);
  }

  /** Every item must be a ready image of the caller's library (a run would fail on anything else). */
  /** Every item is a ready image of the caller's, and the target size (one for all) can be made from each. */
  private async assertLibraryImages(userId: string, ids: string[], tool: ToolInfo<string>, output: OutputOptions | undefined): Promise<void> {
    const found = await this.library.queries.getMany(userId, ids);
    for (const id of ids) {
      const item = found.get(id);
      if (!item) throw new AppError('not_found', batchMessages.imageNotFound);
      if (item.kind !== 'image') throw new AppError('validation', batchMessages.notAnImage);
      if (item.status !== 'ready') throw new AppError('validation', batchMessages.imageNotReady);
      const refusal = item.width && item.height ? targetRefusal(tool, output, { width: item.width, height: item.height }) : null;
      if (refusal) throw new AppError('validation', `${item.original_name}: ${refusal}`);
    }
  }

  /** 402 naming how many items the balance covers; the balance stays locked until the charges commit. */
  private async assertAffordable(userId: string, price: ToolPrice, n: number, tx: Parameters<EnergyService['balance']>[1]): Promise<void> {
    const balance = await this.energy.balance(userId, tx);
    const count = affordable(price.cost, balance, n);
    if (count >= n) return;
    throw new AppError('insufficient_energy', count > 0 ? batchMessages.partial(count, n) : batchMessages.coversNone, {
      affordable_count: count,
      total_cost: price.cost * n,
      balance,
    });
  }

  private async chargeItem(
    tx: Parameters<ToolSubmit['chargeRun']>[0],
    userId: string,
    definition: Tool,
    input: ParsedInput,
    price: ToolPrice,
    batchId: string,
    position: number,
    apiKeyId: string | undefined,
  ): Promise<ToolJobRow> {
    const job = await this.tools.submit.chargeRun(tx, {
      userId,
      definition,
      input,
      price,
      idempotencyKey: null,
      requestHash: requestHashOf(definition.endpoint, input),
      apiKeyId,
      batch: { id: batchId, position, description: `${definition.info.title} (batch)` },
    });
    // Without an Idempotency-Key the insert always happens.
    return job!;
  }

  private async summaryOf(userId: string, batchId: string): Promise<BatchSummary | null> {
    const batch = await repo.findBatch(this.db, userId, batchId);
    return batch ? this.summarizeWithEstimate(batch, await repo.jobsOfBatches(this.db, userId, [batchId])) : null;
  }

  private async summarizeWithEstimate(batch: repo.BatchRow, jobs: ToolJobRow[]): Promise<BatchSummary> {
    const open = jobs.some((j) => j.status === 'queued' || j.status === 'running');
    const measured = secondsPerItem(jobs, null);
    const perItem = open && measured === null ? await this.expectedSeconds(batch.tool) : measured;
    return summarize(batch, jobs, perItem, this.opts.workersPerUser);
  }

  /** Seconds one run of the tool takes here: the estimates history, else the middle of the published range. */
  private async expectedSeconds(tool: string): Promise<number | null> {
    const definition = this.tools.registry.find(tool);
    if (!definition) return null;
    const estimate = await this.estimates.estimate(definition);
    return estimate.median_seconds ?? midpointOf(estimate.text);
  }

  private async itemsOf(userId: string, jobs: ToolJobRow[]): Promise<BatchItem[]> {
    const refs = jobs.flatMap((j) => [sourceItemId(j), j.library_item_id]).filter((s): s is string => !!s);
    const items = await this.library.queries.getMany(userId, refs);
    return jobs.map((job) => {
      const source: LibraryItem | undefined = items.get(sourceItemId(job) ?? '');
      const result: LibraryItem | undefined = job.library_item_id ? items.get(job.library_item_id) : undefined;
      return {
        job_id: job.id,
        position: job.batch_position ?? 0,
        source_item_id: sourceItemId(job),
        source_name: source?.original_name ?? null,
        source_thumbnail_url: source?.thumbnail_url ?? null,
        status: job.status,
        progress_stage: job.progress_stage,
        progress_fraction: job.progress_fraction,
        error: job.error,
        cost: job.cost,
        library_item_id: job.library_item_id,
        result_url: result?.url ?? null,
        result_thumbnail_url: result?.thumbnail_url ?? null,
        retried_by: job.retried_by,
      };
    });
  }
}

function affordable(unitCost: number, balance: number, n: number): number {
  return unitCost === 0 ? n : Math.max(0, Math.min(n, Math.floor(balance / unitCost)));
}

/** '10-30 seconds' -> 20, 'about 2 minutes' -> 120: the published range before any run was measured. */
function midpointOf(text: string): number | null {
  const numbers = (text.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  if (!numbers.length) return null;
  const mid = numbers.reduce((a, b) => a + b, 0) / numbers.length;
  return /minute/i.test(text) ? mid * 60 : mid;
}
