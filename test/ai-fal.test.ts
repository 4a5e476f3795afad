/**
 * The fal.ai provider against an in-process fake of fal (test/helpers/fake-fal.ts):
 * the exact input JSON per tool, auth, storage upload, the queue protocol
 * (subpath dropped for status/result, checkpoint before waiting, resume
 * without a second submit), failures that end COMPLETED, cancel on abort,
 * and outputs copied into the work directory.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LocalMedia, Progress, RunContext } from '../src/server/providers/ai/ai-provider.js';
import { videoRequest } from './helpers/video-input.js';
import { ProviderError } from '../src/server/providers/ai/ai-provider.js';
import { createFalRuntime, progressFromLogs, type FalRuntime, type FalRuntimeOptions } from '../src/server/providers/ai/fal/runtime.js';
import type { AnimateHookInput } from '../src/tools/fal-image-to-video/hook.js';
import { editOnFal } from '../src/tools/fal-image-editor/fal.js';
import { restoreOnFal } from '../src/tools/fal-image-restore/fal.js';
import { animateOnFal } from '../src/tools/fal-image-to-video/fal.js';
import { upscaleOnFal } from '../src/tools/fal-upscaler/fal.js';
import { upscaleVideoOnFal } from '../src/tools/fal-video-upscaler/fal.js';
import { rewriteUrl } from '../src/server/providers/ai/fal/transport.js';
import { sanitize } from '../src/server/providers/ai/fal/errors.js';
import { startFakeFal, type FakeFal, type RecordedRequest } from './helpers/fake-fal.js';
import { FAL_INPUT_SCHEMAS, SCHEMAS_READ_ON } from './fixtures/fal-input-schemas.js';
import { BUILT_IN_TOOLS } from '../src/server/tools/index.js';
import { ToolRegistry } from '../src/server/tools/registry.js';

let fake: FakeFal;
let inputsDir: string;
let image: LocalMedia;
let imageBytes: Buffer;
let video: LocalMedia;
let workDir: string;

beforeAll(async () => {
  fake = await startFakeFal({ apiKey: 'fal-key-0123456789abcdef' });
  inputsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fal-inputs-'));
  imageBytes = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#336699' } }).png().toBuffer();
  image = { path: path.join(inputsDir, 'input.png'), contentType: 'image/png' };
  await fs.writeFile(image.path, imageBytes);
  video = { path: path.join(inputsDir, 'input.mp4'), contentType: 'video/mp4' };
  await fs.writeFile(video.path, fake.mp4.bytes);
});

afterAll(async () => {
  await fake?.close();
  if (inputsDir) await fs.rm(inputsDir, { recursive: true, force: true });
});

beforeEach(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fal-work-'));
  fake.requests.length = 0;
  fake.uploads.length = 0;
  fake.submissions.length = 0;
  fake.onStatus = undefined;
  fake.defaults = { queueSteps: 1, progressSteps: 2, hold: false };
});

afterEach(async () => {
  await fs.rm(workDir, { recursive: true, force: true });
});

/** The fal runtime the tools' fal hooks run on, against the fake. */
function fal(extra: Partial<FalRuntimeOptions> = {}): FalRuntime {
  return createFalRuntime({ apiKey: fake.apiKey, apiBase: fake.url, pollIntervalMs: 5, ...extra });
}

interface Harness {
  ctx: RunContext;
  controller: AbortController;
  progress: Progress[];
  saved: string[];
  /** Status calls already made when each id was saved. */
  statusCallsAtSave: number[];
}

function harness(over: Partial<RunContext> = {}): Harness {
  const controller = new AbortController();
  const progress: Progress[] = [];
  const saved: string[] = [];
  const statusCallsAtSave: number[] = [];
  const ctx: RunContext = {
    signal: controller.signal,
    workDir,
    onProgress: (p) => progress.push(p),
    remoteRequestId: null,
    saveRemoteRequestId: async (id) => {
      saved.push(id);
      statusCallsAtSave.push(fake.of('status').length);
    },
    ...over,
  };
  return { ctx, controller, progress, saved, statusCallsAtSave };
}

const queueKinds = new Set(['initiate', 'initiate-multipart', 'submit', 'status', 'result', 'cancel']);

function expectAuth(requests: RecordedRequest[]) {
  for (const r of requests) {
    if (queueKinds.has(r.kind)) expect(r.headers.authorization, `${r.kind} ${r.path}`).toBe(`Key ${fake.apiKey}`);
    // The key never goes to the CDN (upload PUT, output downloads).
    else expect(r.headers.authorization, `${r.kind} ${r.path}`).toBeUndefined();
  }
  expect(requests.filter((r) => r.kind === 'unknown')).toEqual([]);
}

async function rejection(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

const videoInput = (over: Partial<AnimateHookInput> = {}): AnimateHookInput => ({
  ...videoRequest({ prompt: 'a cat walks along the beach', numFrames: 81, framesPerSecond: 16, resolution: '720p', aspectRatio: 'auto', interpolatorModel: 'film', numInterpolatedFrames: 1 }),
  ...over,
});

describe('fal provider: tools', () => {
  it('upscaler: uploads the image, submits esrgan, checkpoints before polling, downloads the PNG into workDir', async () => {
    fake.defaults = { queueSteps: 2, progressSteps: 2, hold: false };
    const h = harness();
    const out = await upscaleOnFal(fal(), { scale: 4 }, image, h.ctx);

    // Storage upload: initiate (with the content type) + PUT of the exact bytes.
    expect(fake.of('initiate')).toHaveLength(1);
    expect(fake.of('initiate')[0]!.query).toEqual({ storage_type: 'fal-cdn-v3' });
    expect(fake.uploads).toHaveLength(1);
    const upload = fake.uploads[0]!;
    expect(upload.contentType).toBe('image/png');
    expect(upload.putContentType).toBe('image/png');
    expect(upload.bytes?.equals(imageBytes)).toBe(true);

    // Submit: the exact input.
    const submits = fake.of('submit');
    expect(submits).toHaveLength(1);
    expect(submits[0]!.path).toBe('/fal-ai/esrgan');
    expect(submits[0]!.json).toEqual({ image_url: upload.fileUrl, scale: 4, model: 'RealESRGAN_x4plus', output_format: 'png' });
    const id = fake.submissions[0]!.id;

    // Checkpoint before any status call.
    expect(h.saved).toEqual([id]);
    expect(h.statusCallsAtSave).toEqual([0]);

    // Status with logs until COMPLETED, then one result call.
    const statuses = fake.of('status');
    expect(statuses.length).toBe(5);
    for (const s of statuses) {
      expect(s.path).toBe(`/fal-ai/esrgan/requests/${id}/status`);
      expect(s.query.logs).toBe('1');
    }
    expect(fake.of('result').map((r) => r.path)).toEqual([`/fal-ai/esrgan/requests/${id}`]);
    expect(fake.of('cancel')).toEqual([]);
    expectAuth(fake.requests);

    // Output: a copy in workDir.
    expect(path.dirname(out.path)).toBe(workDir);
    expect((await fs.readFile(out.path)).equals(fake.png.bytes)).toBe(true);
    expect(out).toMatchObject({ contentType: 'image/png', model: 'fal-ai/esrgan', width: 32, height: 24 });

    // Progress: queue positions, step logs, monotonic, below the runner's 0.98.
    const stages = h.progress.map((p) => p.stage);
    expect(stages).toContain('Waiting in queue (position 2)');
    expect(stages).toContain('Waiting in queue (position 1)');
    expect(stages).toContain('Upscaling (50%)');
    expect(stages).toContain('Upscaling (100%)');
    expect(stages.at(-1)).toBe('Downloading the result');
    const fractions = h.progress.map((p) => p.fraction);
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1]!);
    expect(Math.max(...fractions)).toBeLessThanOrEqual(0.96);
    expect(Math.max(...fractions)).toBeGreaterThanOrEqual(0.9);
  });

  it('restore: thera with backbone always sent, upscale_factor = upscaling, seed only when given', async () => {
    const p = fal();
    const a = await restoreOnFal(p, { upscaling: 2.5, backbone: 'edsr' }, image, harness().ctx);
    const b = await restoreOnFal(p, { upscaling: 1, backbone: 'rdn', seed: 77 }, image, harness().ctx);
    const [s1, s2] = fake.of('submit');
    expect(s1!.path).toBe('/fal-ai/thera');
    expect(s1!.json).toEqual({ image_url: fake.uploads[0]!.fileUrl, backbone: 'edsr', upscale_factor: 2.5 });
    expect(s2!.json).toEqual({ image_url: fake.uploads[1]!.fileUrl, backbone: 'rdn', upscale_factor: 1, seed: 77 });
    expect(a.model).toBe('fal-ai/thera');
    expect(b.contentType).toBe('image/png');
    expectAuth(fake.requests);
  });

  it('editor: flux-kontext/dev with fixed guidance and steps; reads images[0]; promptUsed is the prompt', async () => {
    const out = await editOnFal(fal(), { prompt: 'make the sky purple', enableSafetyChecker: true }, image, harness().ctx);
    const [s] = fake.of('submit');
    expect(s!.path).toBe('/fal-ai/flux-kontext/dev');
    expect(s!.json).toEqual({
      image_url: fake.uploads[0]!.fileUrl,
      prompt: 'make the sky purple',
      enable_safety_checker: true,
      guidance_scale: 2.5,
      num_inference_steps: 28,
    });
    // Status and result drop the subpath (/dev).
    const id = fake.submissions[0]!.id;
    expect(new Set(fake.of('status').map((r) => r.path))).toEqual(new Set([`/fal-ai/flux-kontext/requests/${id}/status`]));
    expect(fake.of('result')[0]!.path).toBe(`/fal-ai/flux-kontext/requests/${id}`);
    expect(out).toMatchObject({ model: 'fal-ai/flux-kontext/dev', promptUsed: 'make the sky purple', contentType: 'image/png', width: 32, height: 24 });
    expect((await fs.readFile(out.path)).equals(fake.png.bytes)).toBe(true);
  });

  it('editor: a result flagged by the safety checker is refused (not retryable)', async () => {
    fake.plan({ output: { images: [{ url: `${fake.url}/files/none/x.png` }], has_nsfw_concepts: [true], prompt: 'x' } });
    const err = await rejection(editOnFal(fal(), { prompt: 'x', enableSafetyChecker: true }, image, harness().ctx));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/safety checker/i);
    expect(fake.of('file')).toEqual([]);
  });

  it('image to video: wan endpoint with every field mapped; no loras, negative_prompt or seed when absent', async () => {
    const h = harness();
    const out = await animateOnFal(fal(), videoInput(), image, h.ctx);
    const [s] = fake.of('submit');
    expect(s!.path).toBe('/fal-ai/wan/v2.2-a14b/image-to-video');
    expect(s!.json).toEqual({
      image_url: fake.uploads[0]!.fileUrl,
      prompt: 'a cat walks along the beach',
      num_frames: 81,
      frames_per_second: 16,
      resolution: '720p',
      aspect_ratio: 'auto',
      num_inference_steps: 27,
      enable_safety_checker: false,
      enable_prompt_expansion: false,
      acceleration: 'regular',
      interpolator_model: 'film',
      num_interpolated_frames: 1,
      adjust_fps_for_interpolation: true,
      guidance_scale: 3.5,
      guidance_scale_2: 3.5,
      shift: 5,
    });
    const id = fake.submissions[0]!.id;
    // The subpath is dropped: polled at /fal-ai/wan/requests/{id}.
    expect(new Set(fake.of('status').map((r) => r.path))).toEqual(new Set([`/fal-ai/wan/requests/${id}/status`]));
    expect(fake.of('result').map((r) => r.path)).toEqual([`/fal-ai/wan/requests/${id}`]);
    expect(h.saved).toEqual([id]);
    expect(out).toMatchObject({
      model: 'fal-ai/wan/v2.2-a14b/image-to-video',
      contentType: 'video/mp4',
      promptUsed: 'a cat walks along the beach',
      durationSeconds: 5.063, // 81 / 16
    });
    expect((await fs.readFile(out.path)).equals(fake.mp4.bytes)).toBe(true);
    expect(path.extname(out.path)).toBe('.mp4');
    expectAuth(fake.requests);
  });

  it('image to video: LoRAs go to the /lora endpoint (only there), with negative_prompt and seed when given', async () => {
    const out = await animateOnFal(
      fal(),
      videoInput({
        interpolatorModel: 'none',
        numInterpolatedFrames: 0,
        adjustFpsForInterpolation: false,
        numFrames: 121,
        framesPerSecond: 24,
        negativePrompt: 'blurry',
        seed: 99,
        loras: [
          { path: 'https://example.com/a.safetensors', scale: 0.8, transformer: 'high' },
          { path: 'https://example.com/b', weight_name: 'b.safetensors', scale: 1, transformer: 'both' },
        ],
      }),
      image,
      harness().ctx,
    );
    const [s] = fake.of('submit');
    expect(s!.path).toBe('/fal-ai/wan/v2.2-a14b/image-to-video/lora');
    const json = s!.json as Record<string, unknown>;
    expect(json).toMatchObject({
      num_frames: 121,
      frames_per_second: 24,
      interpolator_model: 'none',
      num_interpolated_frames: 0,
      adjust_fps_for_interpolation: false,
      negative_prompt: 'blurry',
      seed: 99,
    });
    expect(json.loras).toEqual([
      { path: 'https://example.com/a.safetensors', scale: 0.8, transformer: 'high' },
      { path: 'https://example.com/b', weight_name: 'b.safetensors', scale: 1, transformer: 'both' },
    ]);
    const id = fake.submissions[0]!.id;
    expect(fake.of('result').map((r) => r.path)).toEqual([`/fal-ai/wan/requests/${id}`]);
    expect(out.model).toBe('fal-ai/wan/v2.2-a14b/image-to-video/lora');
    expect(out.durationSeconds).toBeCloseTo(121 / 24, 3);
  });

  it('video upscaler: uploads the video (video/mp4), sends video_url + scale, probes the output', async () => {
    const out = await upscaleVideoOnFal(fal(), { scale: 2.5 }, video, harness().ctx);
    expect(fake.uploads[0]).toMatchObject({ contentType: 'video/mp4', putContentType: 'video/mp4' });
    expect(fake.uploads[0]!.bytes?.length).toBe(fake.mp4.bytes.length);
    const [s] = fake.of('submit');
    expect(s!.path).toBe('/fal-ai/video-upscaler');
    expect(s!.json).toEqual({ video_url: fake.uploads[0]!.fileUrl, scale: 2.5 });
    expect(out).toMatchObject({ model: 'fal-ai/video-upscaler', contentType: 'video/mp4', width: 64, height: 48 });
    expect(out.durationSeconds).toBeGreaterThan(0.5);
    expect(out.durationSeconds).toBeLessThan(2);
  });

  it('a video over 90 MB goes through the multipart upload (10 MB parts), then submits its URL', async () => {
    const big = { path: path.join(inputsDir, 'big.mp4'), contentType: 'video/mp4' };
    const bytes = Buffer.alloc(91 * 1024 * 1024, 7);
    fake.mp4.bytes.copy(bytes);
    await fs.writeFile(big.path, bytes);
    try {
      const out = await upscaleVideoOnFal(fal(), { scale: 2 }, big, harness().ctx);
      expect(fake.of('initiate')).toEqual([]);
      expect(fake.of('initiate-multipart')).toHaveLength(1);
      expect(fake.of('upload-part')).toHaveLength(10);
      expect(fake.of('upload-complete')).toHaveLength(1);
      const upload = fake.uploads[0]!;
      expect(upload.contentType).toBe('video/mp4');
      expect(upload.bytes?.equals(bytes)).toBe(true);
      expect(fake.of('submit')[0]!.json).toEqual({ video_url: upload.fileUrl, scale: 2 });
      expect(out.model).toBe('fal-ai/video-upscaler');
      expectAuth(fake.requests);
    } finally {
      await fs.rm(big.path, { force: true });
    }
  });

  it('takes the content type from the URL extension when neither the CDN nor fal says', async () => {
    const webp = await sharp(imageBytes).webp().toBuffer();
    fake.plan({ outputFile: { bytes: webp, contentType: null, name: 'result.webp' } });
    const out = await upscaleOnFal(fal(), { scale: 2 }, image, harness().ctx);
    expect(out.contentType).toBe('image/webp');
    expect(path.extname(out.path)).toBe('.webp');
  });
});

describe('fal provider: queue checkpoint and resume', () => {
  it('a retried job with remoteRequestId polls that request and never submits or uploads again', async () => {
    const earlier = fake.seed('fal-ai/esrgan', { queueSteps: 0, progressSteps: 1 });
    const h = harness({ remoteRequestId: earlier.id });
    const out = await upscaleOnFal(fal(), { scale: 2 }, image, h.ctx);
    expect(fake.of('submit')).toEqual([]);
    expect(fake.of('initiate')).toEqual([]);
    expect(fake.uploads).toEqual([]);
    expect(h.saved).toEqual([]);
    expect(fake.of('status').every((r) => r.path === `/fal-ai/esrgan/requests/${earlier.id}/status`)).toBe(true);
    expect(fake.of('result')).toHaveLength(1);
    expect((await fs.readFile(out.path)).equals(fake.png.bytes)).toBe(true);
  });

  it('resumes an image-to-video request at the subpath-less address of the /lora endpoint', async () => {
    const earlier = fake.seed('fal-ai/wan/v2.2-a14b/image-to-video/lora', { queueSteps: 0, progressSteps: 0 }, { prompt: 'p' });
    const out = await animateOnFal(
      fal(),
      videoInput({ loras: [{ path: 'https://example.com/a', scale: 1, transformer: 'low' }] }),
      image,
      harness({ remoteRequestId: earlier.id }).ctx,
    );
    expect(fake.of('submit')).toEqual([]);
    expect(fake.of('result').map((r) => r.path)).toEqual([`/fal-ai/wan/requests/${earlier.id}`]);
    expect(out.model).toBe('fal-ai/wan/v2.2-a14b/image-to-video/lora');
  });

  it('a retryable remote failure: attempt 1 fails retryable, attempt 2 (resuming it) submits a new request once', async () => {
    fake.plan({
      failure: {
        status: 504,
        body: { detail: 'Request timed out', error_type: 'request_timeout' },
        headers: { 'x-fal-retryable': 'true', 'x-fal-error-type': 'request_timeout' },
      },
    });
    const p = fal();
    const first = harness();
    const err = await rejection(upscaleOnFal(p, { scale: 2 }, image, first.ctx));
    expect(err.retryable).toBe(true);
    expect(first.saved).toHaveLength(1);

    const second = harness({ remoteRequestId: first.saved[0] });
    const out = await upscaleOnFal(p, { scale: 2 }, image, second.ctx);
    expect(fake.of('submit')).toHaveLength(2);
    expect(second.saved).toEqual([fake.submissions[1]!.id]);
    expect(second.saved[0]).not.toBe(first.saved[0]);
    expect(out.model).toBe('fal-ai/esrgan');
  });

  it('a resumed request that failed for good is not submitted again', async () => {
    const earlier = fake.seed('fal-ai/thera', {
      queueSteps: 0,
      progressSteps: 0,
      failure: { status: 422, body: { detail: [{ loc: ['body', 'image_url'], msg: 'Image is too small', type: 'value_error' }] } },
    });
    const err = await rejection(restoreOnFal(fal(), { upscaling: 2, backbone: 'edsr' }, image, harness({ remoteRequestId: earlier.id }).ctx));
    expect(err.retryable).toBe(false);
    expect(fake.of('submit')).toEqual([]);
  });

  it('a resumed request fal no longer knows (404) is submitted anew', async () => {
    const h = harness({ remoteRequestId: 'gone-0000' });
    const out = await upscaleOnFal(fal(), { scale: 2 }, image, h.ctx);
    expect(fake.of('status')[0]!.path).toBe('/fal-ai/esrgan/requests/gone-0000/status');
    expect(fake.of('submit')).toHaveLength(1);
    expect(h.saved).toEqual([fake.submissions[0]!.id]);
    expect(out.model).toBe('fal-ai/esrgan');
  });

  it('if the checkpoint cannot be saved, the submitted request is cancelled (a retry would submit again)', async () => {
    fake.defaults = { queueSteps: 1, progressSteps: 1, hold: true };
    const h = harness({
      saveRemoteRequestId: async () => {
        throw new Error('db down');
      },
    });
    await expect(upscaleOnFal(fal(), { scale: 2 }, image, h.ctx)).rejects.toThrow('db down');
    const id = fake.submissions[0]!.id;
    expect(fake.of('cancel').map((r) => r.path)).toEqual([`/fal-ai/esrgan/requests/${id}/cancel`]);
    expect(fake.of('status')).toEqual([]);
  });
});

describe('fal provider: failures end COMPLETED and show on the result call', () => {
  it('422 validation detail -> ProviderError with the messages joined, not retryable', async () => {
    fake.plan({
      failure: {
        status: 422,
        body: {
          detail: [
            { loc: ['body', 'scale'], msg: 'Input should be less than or equal to 8', type: 'less_than_equal' },
            { loc: ['body', 'image_url'], msg: 'Could not download the image', type: 'file_download_error' },
          ],
        },
      },
    });
    const err = await rejection(upscaleOnFal(fal(), { scale: 4 }, image, harness().ctx));
    expect(err.retryable).toBe(false);
    expect(err.message).toBe(
      'The AI service rejected the input: scale: Input should be less than or equal to 8; image_url: Could not download the image',
    );
    // The status said COMPLETED; the failure came from the single result call.
    expect(fake.of('status').at(-1)!.status).toBe(200);
    expect(fake.of('result')).toHaveLength(1);
    expect(fake.of('file')).toEqual([]);
  });

  it('request_timeout with X-Fal-Retryable: true -> retryable, with the detail; the client does not re-ask with backoff', async () => {
    fake.plan({
      failure: {
        status: 504,
        body: { detail: 'Request timed out', error_type: 'request_timeout' },
        headers: { 'x-fal-retryable': 'true', 'x-fal-error-type': 'request_timeout' },
      },
    });
    const started = Date.now();
    const err = await rejection(editOnFal(fal(), { prompt: 'x', enableSafetyChecker: false }, image, harness().ctx));
    expect(err.retryable).toBe(true);
    expect(err.message).toBe('The AI service timed out: Request timed out');
    expect(fake.of('result')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('X-Fal-Retryable: false wins over a transient error type; error_type alone decides otherwise', async () => {
    fake.plan(
      {
        failure: {
          status: 400,
          body: { detail: 'Runner went away', error_type: 'runner_disconnected' },
          headers: { 'x-fal-retryable': 'false', 'x-fal-error-type': 'runner_disconnected' },
        },
      },
      { failure: { status: 400, body: { detail: 'Runner went away', error_type: 'runner_disconnected' } } },
      { failure: { status: 400, body: { detail: 'Malformed', error_type: 'bad_request' }, headers: { 'x-fal-error-type': 'bad_request' } } },
    );
    const p = fal();
    const a = await rejection(upscaleOnFal(p, { scale: 2 }, image, harness().ctx));
    const b = await rejection(upscaleOnFal(p, { scale: 2 }, image, harness().ctx));
    const c = await rejection(upscaleOnFal(p, { scale: 2 }, image, harness().ctx));
    expect([a.retryable, b.retryable, c.retryable]).toEqual([false, true, false]);
    expect(a.message).toBe('The AI service could not finish this request: Runner went away');
    expect(c.message).toBe('The AI service could not finish this request: Malformed');
  });

  it('content policy violations get their own message and are not retried', async () => {
    fake.plan({
      failure: { status: 422, body: { detail: [{ loc: ['body', 'prompt'], msg: 'Prompt flagged', type: 'content_policy_violation' }] } },
    });
    const err = await rejection(editOnFal(fal(), { prompt: 'x', enableSafetyChecker: true }, image, harness().ctx));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/content filter/);
    expect(err.message).toMatch(/Prompt flagged/);
  });

  it('never leaks the API key, URLs or stack traces into messages', async () => {
    fake.plan({
      failure: {
        status: 400,
        body: { detail: `boom with Key ${fake.apiKey} at https://internal.fal/x\n    at Object.<anonymous> (/srv/app.py:1)`, error_type: 'runner_server_error' },
        headers: { 'x-fal-error-type': 'runner_server_error' },
      },
    });
    const err = await rejection(upscaleOnFal(fal(), { scale: 2 }, image, harness().ctx));
    expect(err.message).not.toContain(fake.apiKey);
    expect(err.message).not.toContain('https://');
    expect(err.message).not.toContain('\n');
    expect(err.stack ?? '').not.toContain(fake.apiKey);

    const wrongKey = createFalRuntime({ apiKey: 'wrong-secret-key', apiBase: fake.url, pollIntervalMs: 5 });
    const denied = await rejection(upscaleOnFal(wrongKey, { scale: 2 }, image, harness().ctx));
    expect(denied.retryable).toBe(false);
    expect(denied.message).not.toContain('wrong-secret-key');
    expect(fake.of('submit')).toHaveLength(1); // only the first provider got that far
  });

  it('an output over the size cap is refused and leaves nothing in workDir', async () => {
    const err = await rejection(upscaleOnFal(fal({ limits: { maxImageBytes: 100 } }), { scale: 2 }, image, harness().ctx));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/larger than/);
    expect(await fs.readdir(workDir)).toEqual([]);
  });

  it('a result without an output URL is an error', async () => {
    fake.plan({ output: { image: null } });
    const err = await rejection(upscaleOnFal(fal(), { scale: 2 }, image, harness().ctx));
    expect(err.message).toBe('The AI service returned no result.');
  });
});

describe('fal provider: bare failures (no fal headers) are classified by status', () => {
  const bare = (status: number) => ({ failure: { status, body: { detail: 'Internal Server Error' } } });

  it('a 5xx is resubmitted at once as a new request, without client backoff, and the run succeeds', async () => {
    fake.plan(bare(500));
    const h = harness();
    const started = Date.now();
    const out = await upscaleOnFal(fal(), { scale: 2 }, image, h.ctx);
    expect(out.model).toBe('fal-ai/esrgan');
    expect(fake.of('submit')).toHaveLength(2);
    expect(h.saved).toEqual(fake.submissions.map((st) => st.id));
    // One result call per request: the failed one is not asked again.
    expect(fake.of('result').map((r) => r.requestId)).toEqual(h.saved);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('a 503 (on the client\'s own retry list) is not re-asked with backoff either', async () => {
    fake.plan(bare(503));
    const started = Date.now();
    await upscaleOnFal(fal(), { scale: 2 }, image, harness().ctx);
    expect(fake.of('submit')).toHaveLength(2);
    expect(fake.of('result')).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('at most once: a second 5xx ends the run, not retryable, after exactly two requests', async () => {
    fake.plan(bare(502), bare(500), {});
    const err = await rejection(upscaleOnFal(fal(), { scale: 2 }, image, harness().ctx));
    expect(err.retryable).toBe(false);
    expect(err.message).toBe('The AI service could not finish this request: Internal Server Error');
    expect(fake.of('submit')).toHaveLength(2);
  });

  it('a resumed request that ended in a bare 5xx is replaced by one new request', async () => {
    const earlier = fake.seed('fal-ai/esrgan', { queueSteps: 0, progressSteps: 0, ...bare(500) });
    const h = harness({ remoteRequestId: earlier.id });
    const out = await upscaleOnFal(fal(), { scale: 2 }, image, h.ctx);
    expect(out.model).toBe('fal-ai/esrgan');
    expect(fake.of('submit')).toHaveLength(1);
    expect(h.saved).toEqual([fake.submissions[0]!.id]);
  });

  it('a bare 4xx is final: not retryable, not resubmitted', async () => {
    fake.plan({ failure: { status: 400, body: { detail: 'Bad request' } } });
    const err = await rejection(upscaleOnFal(fal(), { scale: 2 }, image, harness().ctx));
    expect(err.retryable).toBe(false);
    expect(fake.of('submit')).toHaveLength(1);
  });
});

describe(`fal contract: every tool's mapped input fits the model's published schema (read ${SCHEMAS_READ_ON})`, () => {
  const ref = 'https://example.com/in';
  const tools = new ToolRegistry(BUILT_IN_TOOLS);
  /** Bodies at the edges of what our own validation lets through. */
  const cases = {
    'fal-upscaler': [{ image_url: ref, scale: 2 }, { image_url: ref, scale: 8 }],
    'fal-image-restore': [
      { image_url: ref, upscaling: 1, backbone: 'edsr' },
      { image_url: ref, upscaling: 4, backbone: 'rdn', seed: 4_294_967_295 },
    ],
    'fal-image-editor': [
      { image_url: ref, prompt: 'make it blue', enable_safety_checker: true },
      { image_url: ref, prompt: 'x'.repeat(2000) },
    ],
    'fal-image-to-video': [
      { image_url: ref, prompt: 'p', num_frames: 81, frames_per_second: 4, num_inference_steps: 20, guidance_scale: 1, guidance_scale_2: 1, shift: 1, resolution: '480p', aspect_ratio: '9:16', interpolator_model: 'none', acceleration: 'none' },
      {
        image_url: ref, prompt: 'p', num_frames: 121, frames_per_second: 60, num_inference_steps: 50, guidance_scale: 10, guidance_scale_2: 10, shift: 10,
        resolution: '720p', aspect_ratio: '1:1', interpolator_model: 'film', num_interpolated_frames: 4, enable_safety_checker: true,
        enable_prompt_expansion: true, negative_prompt: 'blur', seed: 12,
        loras: [
          { path: 'https://example.com/a.safetensors', scale: 0, transformer: 'low' },
          { path: 'org/repo', weight_name: 'w.safetensors', scale: 2, transformer: 'both' },
          { path: 'https://example.com/c', scale: 1 },
        ],
      },
      { image_url: ref, prompt: 'p', num_frames: 101, frames_per_second: 16, num_inference_steps: 27, guidance_scale: 3.5, resolution: '580p', aspect_ratio: '16:9' },
    ],
    'fal-video-upscaler': [{ video_url: ref, scale: 1.5 }, { video_url: ref, scale: 4 }],
  } as const;

  /** A run of the tool as the worker makes it: its own mapping of the body to its fal hook, on the fal provider. */
  function run(runtime: FalRuntime, endpoint: keyof typeof cases, body: unknown, ctx: RunContext): Promise<unknown> {
    const source = async (_ref: string, kind: 'image' | 'video') => ({ media: kind === 'video' ? video : image, originalUrl: ref, itemId: null });
    return tools.get(endpoint).execute({ name: 'fal', runtime }, body, source, ctx);
  }

  for (const [tool, bodies] of Object.entries(cases) as [keyof typeof cases, readonly unknown[]][]) {
    it(`${tool}: accepted at both ends of our ranges`, async () => {
      fake.defaults = { queueSteps: 0, progressSteps: 0, hold: false };
      for (const body of bodies) {
        await run(fal(), tool, body, harness().ctx);
      }
      expect(fake.submissions).toHaveLength(bodies.length);
      for (const st of fake.submissions) {
        expect(Object.keys(FAL_INPUT_SCHEMAS)).toContain(st.endpointId);
        expect(st.inputErrors, `${st.endpointId} ${JSON.stringify(st.input)}`).toEqual([]);
      }
    });
  }

  it('both image-to-video endpoints are exercised (with and without LoRAs)', async () => {
    fake.defaults = { queueSteps: 0, progressSteps: 0, hold: false };
    for (const body of cases['fal-image-to-video']) await run(fal(), 'fal-image-to-video', body, harness().ctx);
    expect(new Set(fake.submissions.map((st) => st.endpointId))).toEqual(
      new Set(['fal-ai/wan/v2.2-a14b/image-to-video', 'fal-ai/wan/v2.2-a14b/image-to-video/lora']),
    );
  });

  it('the fake refuses a wrong field in fal\'s 422 detail shape, and the run fails with it (not retryable)', async () => {
    const wrong = createFalRuntime({
      apiKey: fake.apiKey,
      apiBase: fake.url,
      pollIntervalMs: 5,
      // The transport as it is, with one renamed field on the way out.
      fetch: async (input, init) => {
        if (init?.method === 'POST' && typeof init.body === 'string' && init.body.includes('"image_url"')) {
          init = { ...init, body: init.body.replace('"image_url"', '"image_urls"') };
        }
        return fetch(input, init);
      },
    });
    const err = await rejection(upscaleOnFal(wrong, { scale: 2 }, image, harness().ctx));
    expect(err.retryable).toBe(false);
    expect(err.message).toBe('The AI service rejected the input: image_url: Field required; image_urls: Extra inputs are not permitted');
    const result = fake.of('result').at(-1)!;
    expect(result.status).toBe(422);
    expect(fake.submissions.at(-1)!.inputErrors).toEqual([
      { loc: ['body', 'image_url'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'image_urls'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
    ]);
  });

  it('out-of-range values and enum values fal does not know are refused', async () => {
    const p = fal();
    await rejection(upscaleOnFal(p, { scale: 9 }, image, harness().ctx));
    await rejection(restoreOnFal(p, { upscaling: 2, backbone: 'swin' as never }, image, harness().ctx));
    await rejection(animateOnFal(p, videoInput({ numFrames: 200 }), image, harness().ctx));
    expect(fake.submissions.map((st) => st.inputErrors.map((e) => `${e.loc.join('.')} ${e.type}`))).toEqual([
      ['body.scale less_than_equal'],
      ['body.backbone literal_error'],
      ['body.num_frames less_than_equal'],
    ]);
  });
});

describe('fal provider: cancel', () => {
  it('aborting while fal works sends the queue cancel and throws the abort reason', async () => {
    fake.defaults = { queueSteps: 1, progressSteps: 1, hold: true };
    const h = harness();
    fake.onStatus = (_st, answer) => {
      if (answer.status === 'IN_PROGRESS') h.controller.abort(new Error('cancelled by user'));
    };
    await expect(animateOnFal(fal(), videoInput(), image, h.ctx)).rejects.toThrow('cancelled by user');
    const id = fake.submissions[0]!.id;
    // Subpath dropped for cancel too.
    expect(fake.of('cancel').map((r) => r.path)).toEqual([`/fal-ai/wan/requests/${id}/cancel`]);
    expect(fake.of('cancel')[0]!.headers.authorization).toBe(`Key ${fake.apiKey}`);
    expect(fake.state.get(id)!.cancelled).toBe(true);
    expect(fake.of('result')).toEqual([]);
  });

  it('aborting while in the queue cancels a resumed request too', async () => {
    const earlier = fake.seed('fal-ai/video-upscaler', { queueSteps: 100, progressSteps: 0 });
    const h = harness({ remoteRequestId: earlier.id });
    fake.onStatus = () => h.controller.abort(new Error('timeout'));
    await expect(upscaleVideoOnFal(fal(), { scale: 2 }, video, h.ctx)).rejects.toThrow('timeout');
    expect(fake.of('cancel').map((r) => r.path)).toEqual([`/fal-ai/video-upscaler/requests/${earlier.id}/cancel`]);
  });

  it('an already-aborted run does nothing remote', async () => {
    const h = harness();
    h.controller.abort(new Error('gone'));
    await expect(upscaleOnFal(fal(), { scale: 2 }, image, h.ctx)).rejects.toThrow('gone');
    expect(fake.requests).toEqual([]);
  });
});

describe('fal provider: helpers', () => {
  it('rewrites the queue, REST and run hosts to apiBase and nothing else', () => {
    const base = 'http://127.0.0.1:9999/';
    expect(rewriteUrl('https://queue.fal.run/fal-ai/esrgan', base)).toBe('http://127.0.0.1:9999/fal-ai/esrgan');
    expect(rewriteUrl('https://rest.fal.ai/storage/upload/initiate?storage_type=fal-cdn-v3', base)).toBe(
      'http://127.0.0.1:9999/storage/upload/initiate?storage_type=fal-cdn-v3',
    );
    expect(rewriteUrl('https://fal.run/fal-ai/esrgan', base)).toBe('http://127.0.0.1:9999/fal-ai/esrgan');
    expect(rewriteUrl('https://v3.fal.media/files/x.png', base)).toBe('https://v3.fal.media/files/x.png');
    expect(rewriteUrl('https://queue.fal.run.evil.com/x', base)).toBe('https://queue.fal.run.evil.com/x');
    expect(rewriteUrl('https://queue.fal.run/x', undefined)).toBe('https://queue.fal.run/x');
  });

  it('reads step progress from logs', () => {
    expect(progressFromLogs(undefined)).toBeNull();
    expect(progressFromLogs([{ message: 'loading model' }])).toBeNull();
    expect(progressFromLogs([{ message: 'Step 3/12' }])).toBe(0.25);
    expect(progressFromLogs([{ message: ' 45%|████▌     | 9/20 [00:05<00:06]' }, { message: 'noise' }])).toBe(0.45);
  });

  it('sanitize removes secrets, URLs and control characters', () => {
    expect(sanitize('a Key abc123 b https://x.y/z\n\tc secret!', ['secret!'])).toBe('a Key [redacted] b [url] c [redacted]');
  });
});
