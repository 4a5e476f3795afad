import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AiProvider, RunContext } from '../providers/ai/ai-provider.js';
import { ProviderError } from '../providers/ai/ai-provider.js';
import type { Tools } from '../features/tools/create-tools.js';
import { generatedName } from '../features/tools/tool-job.js';
import { toolErrors } from '../features/tools/tools.messages.js';
import type { ToolMediaPort } from '../features/tools/tool-media.js';
import { InvalidResultError } from '../tools/tool-definition.js';
import type { JobQueue } from './queue.js';
import type { SourceFetchMessage, ToolRunMessage } from './jobs.js';
import { runProgress } from './run-progress.js';
import type { ParsedInput } from '../tools/tool-definition.js';
import { observeToolRun, type JobOutcome } from '../observability/metrics.js';
import type { RunErrorCode } from '../../shared/admin-jobs.schema.js';

/** What the run and source-fetch handlers need at run time (given when their queues are worked). */
export interface RunDeps {
  queue: JobQueue;
  /** A worker looks at, claims and reports on a run (work), and ends it (settle). */
  tools: Pick<Tools, 'registry' | 'work' | 'settle'>;
  media: ToolMediaPort;
  /** The provider for each tool (AI_PROVIDER, overridable per tool). */
  providerFor(endpoint: string): AiProvider;
  log: { info: (o: unknown, m?: string) => void; warn: (o: unknown, m?: string) => void; error: (o: unknown, m?: string) => void };
  /** Attempts before a run that keeps failing is given up and refunded. */
  maxAttempts?: number;
}

/** How often a running job checks whether it was cancelled or swept (from any process). */
const STATUS_POLL_MS = 2_000;

/** The handler of the tool-run and batch-run queues: one attempt at a run. */
export async function workToolRun(message: ToolRunMessage, deps: RunDeps, signal: AbortSignal): Promise<void> {
  const run = runToolJob(message, deps, signal);
  deps.queue.track(run);
  await run;
}

/** The handler of the source-fetch queue. */
export async function workSourceFetch(message: SourceFetchMessage, deps: RunDeps): Promise<void> {
  const fetched = fetchRunSource(message, deps);
  deps.queue.track(fetched);
  await fetched;
}

/**
 * The stage before a run with a remote source: fetches it under SOURCE_FETCH_TIMEOUT_SECONDS
 * without holding a run slot, then hands the run on. A source that cannot be had fails the run,
 * refunded in the same transaction (it was charged when queued, never for work not done).
 */
export async function fetchRunSource(message: SourceFetchMessage, deps: RunDeps): Promise<void> {
  const { tools, media, log } = deps;
  const job = await tools.work.peek(message.jobId);
  if (!job || job.status !== 'queued') return; // cancelled or swept meanwhile
  const definition = tools.registry.find(job.tool);
  const run: ToolRunMessage = { jobId: message.jobId, userId: message.userId, timeLimitSeconds: message.timeLimitSeconds, tool: job.tool };
  // An unknown tool, or media that keeps nothing: the run worker deals with it as before.
  if (!definition || !media.stageSource) return deps.queue.sendFetchedRun(run, message.batchItem);
  try {
    await media.stageSource(job.user_id, job.id, definition.sourceOf(job.input as ParsedInput), definition.info.input);
  } catch (err) {
    const code = failureCode(err);
    log.warn({ jobId: job.id, tool: job.tool, error_code: code, reason: err instanceof Error ? err.message : String(err) }, `tool run failed: ${code}`);
    await tools.settle.settleFailure(job.id, 'failed', err instanceof ProviderError ? err.message : definition.info.failure, { code, from: ['queued'] });
    return;
  }
  // Cancelled while its source came in: the end already dropped what was kept, or this does.
  if (!(await tools.work.isQueued(job.id))) {
    await media.discardStaged?.(job.user_id, job.id).catch(() => {});
    return;
  }
  await deps.queue.sendFetchedRun(run, message.batchItem);
}

class Cancelled extends Error {}

/** Rejects when the signal fires; never an unhandled rejection when nobody awaits it any more. */
function abortedBy(signal: AbortSignal): Promise<never> {
  const p = new Promise<never>((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  p.catch(() => {});
  return p;
}
/** The process is stopping and its grace period ran out: the queue has failed this attempt for a retry. */
class HandedBack extends Error {}

/**
 * One attempt at a run. Throws only to ask the queue for another attempt.
 * `stopSignal` fires when a draining process gives up waiting for the run.
 */
export async function runToolJob(message: ToolRunMessage, deps: RunDeps, stopSignal?: AbortSignal): Promise<void> {
  const { tools, media, log } = deps;
  // The message names the tool; a job queued by an older build is read first.
  const endpoint = message.tool ?? (await tools.work.peek(message.jobId))?.tool;
  if (!endpoint) return;
  const definition = tools.registry.find(endpoint);
  if (!definition) {
    // A run of a tool this build does not have (removed since): end it, refunded.
    log.warn({ jobId: message.jobId, tool: endpoint }, 'run of an unknown tool');
    await tools.settle.settleFailure(message.jobId, 'failed', toolErrors.unknownTool, { code: 'unknown_tool' });
    return;
  }
  const provider = deps.providerFor(definition.endpoint);
  const job = await tools.work.claim(message.jobId, provider.name, definition.info.timeLimitSeconds);
  if (!job) return; // already ended: cancelled, swept or done
  const tool = definition.info;
  const maxAttempts = deps.maxAttempts ?? 3;

  const controller = new AbortController();
  const msLeft = Math.max(1_000, new Date(job.deadline_at).getTime() - Date.now());
  const deadline = setTimeout(() => controller.abort(new Error('timeout')), msLeft);
  const watcher = setInterval(() => {
    tools.work
      .isStillRunning(job.id)
      .then((running) => {
        if (!running) controller.abort(new Cancelled());
      })
      .catch(() => {});
  }, STATUS_POLL_MS);
  const onStop = () => controller.abort(new HandedBack());
  if (stopSignal?.aborted) onStop();
  else stopSignal?.addEventListener('abort', onStop, { once: true });
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), `run-${job.id.slice(0, 8)}-`));

  const startedAt = performance.now();
  let outcome: JobOutcome = 'failed';
  const progress = runProgress((stage, fraction) => tools.work.progress(job, stage, fraction));
  const ctx: RunContext = {
    signal: controller.signal,
    workDir,
    remoteRequestId: job.remote_request_id,
    saveRemoteRequestId: async (requestId) => {
      await tools.work.saveRemoteRequestId(job.id, requestId);
    },
    onProgress: (p) => progress.report(p),
  };

  try {
    ctx.onProgress({ stage: 'Preparing', fraction: 0.02 });
    // An abort (cancel, deadline, shutdown) settles the run now, without
    // waiting for the provider to notice the signal on its own.
    const work = definition.execute(
      provider,
      job.input,
      (ref, kind) => media.resolveInput(job.user_id, ref, kind, workDir, job.id),
      ctx,
    );
    work.catch(() => {});
    const { output, result, prompt, source } = await Promise.race([work, abortedBy(controller.signal)]);
    if (controller.signal.aborted) throw controller.signal.reason;
    ctx.onProgress({ stage: 'Saving to your library', fraction: 0.98 });
    const { itemId } = await media.saveResult({
      userId: job.user_id,
      jobId: job.id,
      output,
      kind: tool.output,
      generationType: tool.label,
      originalName: generatedName(tool.output === 'video' ? 'Video' : 'Image', prompt ?? tool.label),
      originalImageUrl: source.originalUrl,
      prompt,
      sourceItemId: source.itemId,
    });
    progress.end();
    outcome = (await tools.settle.settleSuccess(job, result, itemId)) ? 'succeeded' : 'canceled';
  } catch (err) {
    progress.end();
    const reason = controller.signal.aborted ? controller.signal.reason : err;
    if (reason instanceof Cancelled) {
      outcome = 'canceled';
      return; // someone else settled it (cancel or sweep): refunded there
    }
    if (reason instanceof HandedBack) {
      outcome = 'handed_back';
      // Already charged once; the queue's retry runs it again without a new charge.
      if (await tools.work.release(job).catch(() => false)) log.info({ jobId: job.id }, 'tool run handed back to the queue at shutdown');
      return;
    }
    if (controller.signal.aborted) {
      outcome = 'timed_out';
      log.warn({ jobId: job.id, tool: job.tool, error_code: 'timed_out' }, 'tool run failed: timed_out');
      await tools.settle.settleFailure(job.id, 'failed', toolErrors.timedOut, { code: 'timed_out' });
      return;
    }
    const retryable = !(err instanceof ProviderError) || err.retryable;
    if (retryable && job.attempts < maxAttempts) {
      outcome = 'retry';
      log.warn({ err, jobId: job.id, attempt: job.attempts }, 'tool run failed; will retry');
      throw err;
    }
    // Every failed run is a warning with its code (what operators count and alert on); a refused
    // input or a model's own refusal needs no stack trace, an unexpected error does.
    const code = failureCode(err);
    const entry = { jobId: job.id, tool: job.tool, error_code: code };
    if (err instanceof InvalidResultError) log.warn({ ...entry, detail: err.detail }, `tool run failed: ${code}`);
    else if (err instanceof ProviderError) log.warn({ ...entry, reason: err.message }, `tool run failed: ${code}`);
    else log.warn({ ...entry, err }, `tool run failed: ${code}`);
    await tools.settle.settleFailure(job.id, 'failed', err instanceof ProviderError ? err.message : tool.failure, { code });
  } finally {
    clearTimeout(deadline);
    clearInterval(watcher);
    stopSignal?.removeEventListener('abort', onStop);
    observeToolRun(job.tool, outcome, (performance.now() - startedAt) / 1000);
    await fs.rm(workDir, { recursive: true, force: true }).catch(() => {});
  }
}

/** Why a run failed, in a word an operator can count: the provider's refusal, its outage, or our own error. */
function failureCode(err: unknown): RunErrorCode {
  if (err instanceof InvalidResultError) return 'invalid_result';
  if (err instanceof ProviderError) return err.retryable ? 'provider_unavailable' : 'provider_refused';
  return 'internal';
}
