import type { RestoreFindings } from '../../../shared/tool-results.js';

/**
 * What a tool run asks of an AI provider. Media goes in and comes out as
 * local files (the job runner downloads inputs from our storage and stores
 * the outputs), so providers never touch storage or the database.
 */
import type { EditInterpretation } from '../../../shared/edit-language/interpret.js';

export interface LocalMedia {
  /** Absolute path of a file on local disk. */
  path: string;
  contentType: string;
}

export interface Progress {
  /** Short human text, e.g. 'Upscaling tile 3 of 12'. */
  stage: string;
  /** 0..1 */
  fraction: number;
}

export interface RunContext {
  /** Aborted on cancel or timeout: stop work and throw. */
  signal: AbortSignal;
  onProgress(progress: Progress): void;
  /** A private temporary directory for outputs; removed by the caller after the run. */
  workDir: string;
  /**
   * Checkpoint for remote providers (reliability J2): the request id of a
   * previous attempt of this job, if any, and a way to record a new one
   * before waiting for it.
   */
  remoteRequestId?: string | null;
  saveRemoteRequestId?(id: string): Promise<void>;
}

export interface MediaOutput extends LocalMedia {
  /** The model or method that produced it, reported to the user as `model`. */
  model: string;
  width?: number;
  height?: number;
}

export interface VideoOutput extends MediaOutput {
  durationSeconds: number;
}

export interface UpscaleImageInput {
  image: LocalMedia;
  /** 2..8 */
  scale: number;
}

export interface RestoreImageInput {
  image: LocalMedia;
  /** 1..4 step 0.5 */
  upscaling: number;
  backbone: 'edsr' | 'rdn';
  seed?: number;
}

export interface RestoreImageOutput extends MediaOutput {
  /** What the provider found wrong with the photo and repaired (providers that cannot tell leave it out). */
  findings?: RestoreFindings;
}

export interface EditImageInput {
  image: LocalMedia;
  prompt: string;
  enableSafetyChecker: boolean;
}

export interface EditImageOutput extends MediaOutput {
  /** What the provider understood / used of the prompt. */
  promptUsed: string;
}

export interface LoraEntry {
  path: string;
  weight_name?: string;
  scale: number;
  transformer: 'high' | 'low' | 'both';
}

export interface ImageToVideoInput {
  image: LocalMedia;
  prompt: string;
  numFrames: number;
  framesPerSecond: number;
  resolution: '480p' | '580p' | '720p';
  aspectRatio: 'auto' | '16:9' | '9:16' | '1:1';
  numInferenceSteps: number;
  enableSafetyChecker: boolean;
  enablePromptExpansion: boolean;
  acceleration: 'none' | 'regular';
  interpolatorModel: 'none' | 'film';
  numInterpolatedFrames: number;
  adjustFpsForInterpolation: boolean;
  guidanceScale: number;
  guidanceScale2: number;
  shift: number;
  negativePrompt?: string;
  loras: LoraEntry[];
  seed?: number;
}

export interface ImageToVideoOutput extends VideoOutput {
  promptUsed: string;
}

export interface UpscaleVideoInput {
  video: LocalMedia;
  /** 1.5..4 step 0.5 */
  scale: number;
}

export interface AiProvider {
  readonly name: string;
  /** What the tools' hooks run on (providers/ai/hooks.ts): a provider named 'local' or 'fal' carries that runtime. */
  readonly runtime?: unknown;
  upscaleImage(input: UpscaleImageInput, ctx: RunContext): Promise<MediaOutput>;
  restoreImage(input: RestoreImageInput, ctx: RunContext): Promise<RestoreImageOutput>;
  editImage(input: EditImageInput, ctx: RunContext): Promise<EditImageOutput>;
  imageToVideo(input: ImageToVideoInput, ctx: RunContext): Promise<ImageToVideoOutput>;
  upscaleVideo(input: UpscaleVideoInput, ctx: RunContext): Promise<VideoOutput>;
  /** How this provider reads an edit request before any charge (the local editor; a cloud editor takes it as written). */
  interpretEdit?(prompt: string): EditInterpretation;
  close?(): Promise<void>;
}

/** A provider failure whose message is safe to show the user. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
