import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AiProvider, MediaOutput, RunContext } from '../providers/ai/ai-provider.js';
import { ProviderError } from '../providers/ai/ai-provider.js';
import type { ToolsService } from '../features/tools/tools.service.js';
import { generatedName, toolErrors } from '../features/tools/tools.service.js';
import type { ToolMediaPort } from '../features/tools/tool-media.js';
import type { ToolJobRow } from '../features/tools/tools.repo.js';
import { TOOLS, type ToolEndpoint } from '../../shared/tools.js';
import { TOOL_RUN_QUEUE, type JobQueue, type ToolRunMessage } from './queue.js';

export interface WorkerDeps {
  queue: JobQueue;
  tools: ToolsService;
  media: ToolMediaPort;
  /** The provider for each tool (AI_PROVIDER, overridable per tool). */
  providerFor(tool: ToolEndpoint): AiProvider;
  log: { info: (o: unknown, m?: string) => void; warn: (o: unknown, m?: string) => void; error: (o: unknown, m?: string) => void };
  /** Heavy jobs at once in this process (default: one per core). */
  concurrency: number;
  /** Runs of one user at once across all processes, so one user cannot starve the rest. */
  perUserConcurrency: number;
  /** Attempts before a run that keeps failing is given up and refunded. */
  maxAttempts?: number;
}

/** How often a running job checks whether it was cancelled or swept (from any process). */
const STATUS_POLL_MS = 2_000;
/** Progress is written at most this often (plus every 5% step). */
const PROGRESS_INTERVAL_MS = 400;

export async function startToolWorkers(deps: WorkerDeps): Promise<void> {
  const id = await deps.queue.boss.work<ToolRunMessage>(
    TOOL_RUN_QUEUE,
    {
      batchSize: 1,
      localConcurrency: deps.concurrency,
      groupConcurrency: deps.perUserConcurrency,
      pollingIntervalSeconds: 1,
    },
    async ([message]) => {
      try {
        await runToolJob(message.data, deps);
      } finally {
        // A worker that just finished fetches again at once instead of
        // sleeping out its polling interval while work is waiting.
        deps.queue.wake();
      }
    },
  );
  deps.queue.workerIds.push(id);
}

class Cancelled extends Error {}

/** One attempt at a run. Throws only to ask the queue for another attempt. */
export async function runToolJob(message: ToolRunMessage, deps: WorkerDeps): Promise<void> {
  const { tools, media, log } = deps;
  const queued = await tools.peek(message.jobId);
  if (!queued) return;
  const provider = deps.providerFor(queued.tool);
  const job = await tools.claim(message.jobId, provider.name);
  if (!job) return; // already ended: cancelled, swept or done
  const tool = TOOLS[job.tool];
  const maxAttempts = deps.maxAttempts ?? 3;

  const controller = new AbortController();
  const msLeft = Math.max(1_000, new Date(job.deadline_at).getTime() - Date.now());
  const deadline = setTimeout(() => controller.abort(new Error('timeout')), msLeft);
  const watcher = setInterval(() => {
    tools
      .isStillRunning(job.id)
      .then((running) => {
        if (!running) controller.abort(new Cancelled());
      })
      .catch(() => {});
  }, STATUS_POLL_MS);
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), `run-${job.id.slice(0, 8)}-`));

  let lastWrite = 0;
  let lastFraction = -1;
  const ctx: RunContext = {
    signal: controller.signal,
    workDir,
    remoteRequestId: job.remote_request_id,
    saveRemoteRequestId: async (requestId) => {
      await tools.saveRemoteRequestId(job.id, requestId);
    },
    onProgress: ({ stage, fraction }) => {
      const now = Date.now();
      const f = Math.max(0, Math.min(1, fraction));
      if (now - lastWrite < PROGRESS_INTERVAL_MS && f - lastFraction < 0.05) return;
      lastWrite = now;
      lastFraction = f;
      void tools.progress(job, stage, f).catch(() => {});
    },
  };

  try {
    ctx.onProgress({ stage: 'Preparing', fraction: 0.02 });
    const { output, result, originalImageUrl, prompt } = await execute(job, provider, media, ctx);
    if (controller.signal.aborted) throw controller.signal.reason;
    ctx.onProgress({ stage: 'Saving to your library', fraction: 0.98 });
    const { itemId } = await media.saveResult({
      userId: job.user_id,
      jobId: job.id,
      output,
      kind: tool.output,
      generationType: tool.label,
      originalName: generatedName(tool.output === 'video' ? 'Video' : 'Image', prompt ?? tool.label),
      originalImageUrl,
      prompt,
    });
    await tools.settleSuccess(job, result, itemId);
  } catch (err) {
    const reason = controller.signal.aborted ? controller.signal.reason : err;
    if (reason instanceof Cancelled) return; // someone else settled it (cancel or sweep): refunded there
    if (controller.signal.aborted) {
      await tools.settleFailure(job.id, 'failed', toolErrors.timedOut);
      return;
    }
    const retryable = !(err instanceof ProviderError) || err.retryable;
    if (retryable && job.attempts < maxAttempts) {
      log.warn({ err, jobId: job.id, attempt: job.attempts }, 'tool run failed; will retry');
      throw err;
    }
    // A refused input or a model's own refusal is the user's to fix: no stack trace needed.
    if (err instanceof ProviderError) log.info({ jobId: job.id, reason: err.message }, 'tool run failed');
    else log.warn({ err, jobId: job.id }, 'tool run failed');
    await tools.settleFailure(job.id, 'failed', err instanceof ProviderError ? err.message : tool.failure);
  } finally {
    clearTimeout(deadline);
    clearInterval(watcher);
    await fs.rm(workDir, { recursive: true, force: true }).catch(() => {});
  }
}

interface Execution {
  output: MediaOutput & { durationSeconds?: number };
  result: Record<string, unknown>;
  originalImageUrl: string | null;
  prompt: string | null;
}

async function execute(job: ToolJobRow, provider: AiProvider, media: ToolMediaPort, ctx: RunContext): Promise<Execution> {
  const input = job.input as Record<string, any>;
  const isVideoInput = job.tool === 'fal-video-upscaler';
  const source = await media.resolveInput(job.user_id, String(isVideoInput ? input.video_url : input.image_url), isVideoInput ? 'video' : 'image', ctx.workDir);
  const original = { original_url: source.originalUrl, original_item_id: source.itemId };
  ctx.onProgress({ stage: 'Processing', fraction: 0.05 });

  switch (job.tool) {
    case 'fal-image-editor': {
      const out = await provider.editImage({ image: source.media, prompt: input.prompt, enableSafetyChecker: !!input.enable_safety_checker }, ctx);
      return { output: out, result: { ...original, model: out.model, prompt_used: out.promptUsed }, originalImageUrl: source.originalUrl, prompt: input.prompt };
    }
    case 'fal-image-restore': {
      const out = await provider.restoreImage({ image: source.media, upscaling: input.upscaling, backbone: input.backbone, seed: input.seed }, ctx);
      return {
        output: out,
        result: { ...original, model: out.model, settings: { upscaling: input.upscaling, backbone: input.backbone } },
        originalImageUrl: source.originalUrl,
        prompt: null,
      };
    }
    case 'fal-upscaler': {
      const out = await provider.upscaleImage({ image: source.media, scale: input.scale }, ctx);
      return { output: out, result: { ...original, model: out.model, scale_factor: input.scale }, originalImageUrl: source.originalUrl, prompt: null };
    }
    case 'fal-image-to-video': {
      const out = await provider.imageToVideo(
        {
          image: source.media,
          prompt: input.prompt,
          numFrames: input.num_frames,
          framesPerSecond: input.frames_per_second,
          resolution: input.resolution,
          aspectRatio: input.aspect_ratio,
          numInferenceSteps: input.num_inference_steps,
          enableSafetyChecker: !!input.enable_safety_checker,
          enablePromptExpansion: !!input.enable_prompt_expansion,
          acceleration: input.acceleration,
          interpolatorModel: input.interpolator_model,
          numInterpolatedFrames: input.num_interpolated_frames,
          adjustFpsForInterpolation: !!input.adjust_fps_for_interpolation,
          guidanceScale: input.guidance_scale,
          guidanceScale2: input.guidance_scale_2,
          shift: input.shift,
          negativePrompt: input.negative_prompt,
          loras: input.loras ?? [],
          seed: input.seed,
        },
        ctx,
      );
      return {
        output: out,
        result: { ...original, model: out.model, prompt_used: out.promptUsed, duration_seconds: out.durationSeconds },
        originalImageUrl: source.originalUrl,
        prompt: input.prompt,
      };
    }
    case 'fal-video-upscaler': {
      const out = await provider.upscaleVideo({ video: source.media, scale: input.scale }, ctx);
      return {
        output: out,
        result: { ...original, model: out.model, scale_factor: input.scale, duration_seconds: out.durationSeconds },
        originalImageUrl: source.originalUrl,
        // SPEC §7: the video upscaler saves this description.
        prompt: `Upscaled ${input.scale}x from original video`,
      };
    }
  }
}
