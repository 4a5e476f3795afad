/**
 * The fal.ai provider: the fal runtime, and each tool's fal hook as a method
 * while callers still ask the provider per tool.
 */
import type { AiProvider } from '../ai-provider.js';
import { createFalRuntime, type FalRuntime, type FalRuntimeOptions } from './runtime.js';
import { editOnFal } from '../../../../tools/fal-image-editor/fal.js';
import { restoreOnFal } from '../../../../tools/fal-image-restore/fal.js';
import { animateOnFal } from '../../../../tools/fal-image-to-video/fal.js';
import { upscaleOnFal } from '../../../../tools/fal-upscaler/fal.js';
import { upscaleVideoOnFal } from '../../../../tools/fal-video-upscaler/fal.js';

export type FalAiProviderOptions = FalRuntimeOptions;

export function createFalAiProvider(opts: FalAiProviderOptions): AiProvider & { runtime: FalRuntime } {
  const runtime = createFalRuntime(opts);
  return {
    name: 'fal',
    runtime,
    upscaleImage: (i, ctx) => upscaleOnFal(runtime, i, i.image, ctx),
    restoreImage: (i, ctx) => restoreOnFal(runtime, i, i.image, ctx),
    editImage: (i, ctx) => editOnFal(runtime, i, i.image, ctx),
    imageToVideo: (i, ctx) => animateOnFal(runtime, i, i.image, ctx),
    upscaleVideo: (i, ctx) => upscaleVideoOnFal(runtime, i, i.video, ctx),
  };
}
