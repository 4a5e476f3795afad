/**
 * What a tool run hands an AI provider and gets back. Media goes in and comes
 * out as local files (the job runner downloads inputs from our storage and
 * stores the outputs), so providers never touch storage or the database.
 */
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

/**
 * A provider is a name and the runtime the tools' hooks run on
 * (providers/ai/hooks.ts): the local runtime for 'local', the fal runtime for
 * 'fal', or a runtime that answers any tool (the test fake). What a tool asks
 * of it is the tool's own (src/tools/<endpoint>/local.ts, fal.ts).
 */
export interface AiProvider {
  readonly name: string;
  readonly runtime: unknown;
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
