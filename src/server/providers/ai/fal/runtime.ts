/**
 * The fal.ai runtime every tool's fal hook runs on: each tool is one request on fal's queue.
 *
 *   upload input (fal storage) -> submit -> save request id (checkpoint)
 *   -> poll status (progress) -> result -> download output into workDir
 *
 * A retried job comes back with `ctx.remoteRequestId`: it polls that request
 * instead of submitting (and paying for) a second one. Only when fal says that
 * request failed in a retryable way, or no longer knows it, is a new one
 * submitted. On abort (cancel or deadline) the fal request is cancelled too.
 */
import type { LocalMedia, MediaOutput, RunContext } from '../ai-provider.js';
import { probeMedia } from '../local/ffmpeg.js';
import { downloadOutput } from './download.js';
import { readImage, readVideo, type FalFileRef, type FalRequest } from './endpoints.js';
import { FalProviderError, toProviderError } from './errors.js';
import { createFalTransport, type FalTransport } from './transport.js';

export interface FalRuntimeOptions {
  apiKey: string;
  /** Points the client at another host (config FAL_API_BASE; a fake in tests). */
  apiBase?: string;
  fetch?: typeof fetch;
  /** Status poll interval (default 1 s). */
  pollIntervalMs?: number;
  limits?: Partial<FalLimits>;
  /** Tests only: replaces the @fal-ai/client transport. */
  transport?: FalTransport;
}

export interface FalLimits {
  maxImageBytes: number;
  maxVideoBytes: number;
  imageDownloadTimeoutMs: number;
  videoDownloadTimeoutMs: number;
  /** Submit is not tied to the run's signal (we must learn the id to cancel it), only to this. */
  submitTimeoutMs: number;
  cancelTimeoutMs: number;
}

const DEFAULT_LIMITS: FalLimits = {
  maxImageBytes: 50 * 1024 * 1024,
  maxVideoBytes: 500 * 1024 * 1024,
  imageDownloadTimeoutMs: 2 * 60_000,
  videoDownloadTimeoutMs: 10 * 60_000,
  submitTimeoutMs: 60_000,
  cancelTimeoutMs: 10_000,
};

/** One tool's request to fal. */
export interface FalJob {
  /** Verb for progress while fal works, e.g. 'Upscaling'. */
  verb: string;
  /** Seconds fal typically needs: paces the time-based progress. */
  typicalSeconds: number;
  /** The input, uploaded to fal's storage. */
  media: LocalMedia;
  build(uploadedUrl: string): FalRequest;
}

/** What a job makes: its output kind picks the download limits. */
type OutputKind = 'image' | 'video';

const mediaKind = (media: LocalMedia) => (media.contentType.startsWith('video/') ? 'video' : 'image');

interface Completed {
  endpoint: string;
  requestId: string;
  data: unknown;
}

/** Progress window while fal works: queue 0.10-0.15, processing 0.15-0.90, download 0.90-0.96. */
const IN_PROGRESS_FROM = 0.15;
const IN_PROGRESS_SPAN = 0.75;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A fraction from the newest log line that shows one (tqdm '45%|', 'step 12/28'), else null. */
export function progressFromLogs(logs: ReadonlyArray<{ message?: unknown }> | undefined): number | null {
  if (!logs?.length) return null;
  for (let i = logs.length - 1; i >= Math.max(0, logs.length - 20); i--) {
    const msg = typeof logs[i]?.message === 'string' ? (logs[i]!.message as string) : '';
    const pct = /(\d{1,3})%\s*\|/.exec(msg);
    if (pct) {
      const p = Number(pct[1]);
      if (p >= 0 && p <= 100) return p / 100;
    }
    const step = /\b(\d{1,6})\s*\/\s*(\d{1,6})\b/.exec(msg);
    if (step) {
      const k = Number(step[1]);
      const n = Number(step[2]);
      if (n >= 2 && k >= 0 && k <= n) return k / n;
    }
  }
  return null;
}

/** A fal answer: the downloaded file, and fal's output JSON (`data`) for the hook to read more from. */
export interface FalImageOutcome {
  output: MediaOutput;
  data: unknown;
}
export type FalVideoOutcome = FalImageOutcome & { probedSeconds: number };

/** What a tool's fal hook runs on: submit, poll, checkpoint (reliability J2), download and error mapping. */
export interface FalRuntime {
  /** Runs a job that makes an image; `read` finds it in fal's answer (and may refuse it): `images[0]` or `image` by default. */
  image(job: FalJob, ctx: RunContext, read?: (data: unknown) => FalFileRef | null): Promise<FalImageOutcome>;
  /** Runs a job that makes a video; the output is probed for its size and length. */
  video(job: FalJob, ctx: RunContext): Promise<FalVideoOutcome>;
}

export function createFalRuntime(opts: FalRuntimeOptions): FalRuntime {
  if (!opts.apiKey) throw new Error('createFalRuntime: apiKey is required');
  const fetchImpl = opts.fetch ?? globalThis.fetch;
  const transport = opts.transport ?? createFalTransport({ apiKey: opts.apiKey, apiBase: opts.apiBase, fetch: fetchImpl });
  const pollIntervalMs = Math.max(1, opts.pollIntervalMs ?? 1_000);
  const limits: FalLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const secrets = [opts.apiKey];

  function reporter(ctx: RunContext) {
    let last = 0;
    return (stage: string, fraction: number) => {
      last = Math.max(last, Math.min(0.96, fraction));
      ctx.onProgress({ stage, fraction: last });
    };
  }
  type Report = ReturnType<typeof reporter>;

  async function cancelRemote(endpoint: string, requestId: string): Promise<void> {
    try {
      await transport.cancel(endpoint, requestId, AbortSignal.timeout(limits.cancelTimeoutMs));
    } catch {
      // Best effort: it may have completed already; the run is over either way.
    }
  }

  /** Throws the run's abort reason (after cancelling the remote request, if any). */
  async function abort(ctx: RunContext, remote?: { endpoint: string; requestId: string }): Promise<never> {
    if (remote) await cancelRemote(remote.endpoint, remote.requestId);
    throw ctx.signal.reason ?? new Error('aborted');
  }

  async function submitNew(job: FalJob, ctx: RunContext, report: Report): Promise<{ endpoint: string; requestId: string }> {
    if (ctx.signal.aborted) await abort(ctx);
    report(`Uploading your ${mediaKind(job.media)}`, 0.06);
    let uploadedUrl: string;
    try {
      uploadedUrl = await transport.upload(job.media, ctx.signal);
    } catch (err) {
      if (ctx.signal.aborted) await abort(ctx);
      throw toProviderError(err, secrets, `upload of the ${mediaKind(job.media)}`);
    }
    const { endpoint, body } = job.build(uploadedUrl);
    report('Sending to the AI service', 0.08);
    let requestId: string;
    try {
      // Not tied to ctx.signal: if the run is cancelled meanwhile we still learn the id and cancel it.
      ({ requestId } = await transport.submit(endpoint, body, AbortSignal.timeout(limits.submitTimeoutMs)));
    } catch (err) {
      if (ctx.signal.aborted) await abort(ctx);
      throw toProviderError(err, secrets, 'submit');
    }
    if (!requestId) throw new FalProviderError('The AI service did not accept the request.', true);
    if (ctx.signal.aborted) await abort(ctx, { endpoint, requestId });
    try {
      // Checkpoint before waiting: a retried job polls this request instead of paying for another.
      await ctx.saveRemoteRequestId?.(requestId);
    } catch (err) {
      // Without the checkpoint a retry would submit again: do not leave this one running.
      await cancelRemote(endpoint, requestId);
      throw err;
    }
    report('Waiting in queue', 0.1);
    return { endpoint, requestId };
  }

  async function waitForCompletion(job: FalJob, endpoint: string, requestId: string, ctx: RunContext, report: Report): Promise<void> {
    const remote = { endpoint, requestId };
    let startedAt: number | null = null;
    let queuePolls = 0;
    for (;;) {
      if (ctx.signal.aborted) await abort(ctx, remote);
      let status: Awaited<ReturnType<FalTransport['status']>>;
      try {
        status = await transport.status(endpoint, requestId, ctx.signal);
      } catch (err) {
        if (ctx.signal.aborted) await abort(ctx, remote);
        throw toProviderError(err, secrets, 'status');
      }
      if (status.status === 'COMPLETED') return;
      if (status.status === 'IN_QUEUE') {
        queuePolls++;
        const ahead = Number((status as { queue_position?: unknown }).queue_position);
        const stage = Number.isFinite(ahead) && ahead >= 0 ? `Waiting in queue (position ${ahead + 1})` : 'Waiting in queue';
        report(stage, 0.1 + 0.05 * (1 - Math.exp(-queuePolls / 30)));
      } else {
        startedAt ??= Date.now();
        const elapsed = (Date.now() - startedAt) / 1000;
        const byTime = 1 - Math.exp(-elapsed / job.typicalSeconds);
        const byLogs = progressFromLogs((status as { logs?: Array<{ message?: unknown }> }).logs);
        const f = Math.max(byTime, byLogs ?? 0);
        const stage = byLogs !== null ? `${job.verb} (${Math.round(byLogs * 100)}%)` : job.verb;
        report(stage, IN_PROGRESS_FROM + IN_PROGRESS_SPAN * f);
      }
      await sleep(pollIntervalMs, ctx.signal);
    }
  }

  /** Submits (or resumes) the request and returns its output JSON. */
  async function runOnFal(job: FalJob, ctx: RunContext, report: Report): Promise<Completed> {
    let resumedId = ctx.remoteRequestId || null;
    let resubmitted = false;
    for (;;) {
      let endpoint: string;
      let requestId: string;
      if (resumedId) {
        endpoint = job.build('').endpoint;
        requestId = resumedId;
        report('Checking on the earlier request', 0.1);
      } else {
        ({ endpoint, requestId } = await submitNew(job, ctx, report));
      }
      try {
        await waitForCompletion(job, endpoint, requestId, ctx, report);
        report('Fetching the result', IN_PROGRESS_FROM + IN_PROGRESS_SPAN);
        let data: unknown;
        try {
          data = await transport.result(endpoint, requestId, ctx.signal);
        } catch (err) {
          if (ctx.signal.aborted) await abort(ctx);
          throw toProviderError(err, secrets, 'result');
        }
        return { endpoint, requestId, data };
      } catch (err) {
        if (ctx.signal.aborted || !(err instanceof FalProviderError)) throw err;
        // A bare 5xx: fal's side broke without saying more. One new request now;
        // if that breaks too the run ends (not retryable), so a job never pays
        // for a string of failing requests.
        if (err.resubmit) {
          if (resubmitted) throw new FalProviderError(err.message, false, true, err.status);
          resubmitted = true;
          resumedId = null;
          continue;
        }
        // The earlier attempt's request failed in a way worth retrying, or fal forgot it:
        // a new submission cannot double the work.
        if (resumedId && err.remoteGone && (err.retryable || err.status === 404)) {
          resumedId = null;
          continue;
        }
        throw err;
      }
    }
  }

  async function fetchOutput(kind: OutputKind, ref: FalFileRef, ctx: RunContext, report: Report) {
    report('Downloading the result', 0.9);
    const image = kind === 'image';
    return downloadOutput(ref.url, {
      fetch: fetchImpl,
      workDir: ctx.workDir,
      kind,
      maxBytes: image ? limits.maxImageBytes : limits.maxVideoBytes,
      timeoutMs: image ? limits.imageDownloadTimeoutMs : limits.videoDownloadTimeoutMs,
      signal: ctx.signal,
      declaredType: ref.contentType,
      onProgress: (f) => report('Downloading the result', 0.9 + 0.06 * f),
    });
  }

  function noResult(): never {
    throw new FalProviderError('The AI service returned no result.', false);
  }

  async function imageTool(job: FalJob, ctx: RunContext, read: (data: unknown) => FalFileRef | null = readImage): Promise<FalImageOutcome> {
    const report = reporter(ctx);
    const done = await runOnFal(job, ctx, report);
    const ref = read(done.data) ?? noResult();
    const file = await fetchOutput('image', ref, ctx, report);
    return { output: { path: file.path, contentType: file.contentType, model: done.endpoint, width: ref.width, height: ref.height }, data: done.data };
  }

  async function videoTool(job: FalJob, ctx: RunContext): Promise<FalVideoOutcome> {
    const report = reporter(ctx);
    const done = await runOnFal(job, ctx, report);
    const ref = readVideo(done.data) ?? noResult();
    const file = await fetchOutput('video', ref, ctx, report);
    let width = ref.width;
    let height = ref.height;
    let probedSeconds = 0;
    try {
      const info = await probeMedia(file.path, ctx.signal);
      width = info.width || width;
      height = info.height || height;
      probedSeconds = info.durationSeconds;
    } catch {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      // Not readable here: the library checks the file again when it stores it.
    }
    return { output: { path: file.path, contentType: file.contentType, model: done.endpoint, width, height }, data: done.data, probedSeconds };
  }

  return { image: imageTool, video: videoTool };
}
