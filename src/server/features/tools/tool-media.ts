import type { LocalMedia, MediaOutput } from '../../providers/ai/ai-provider.js';

/**
 * What a tool run needs from the media library: inputs as local files, and
 * a once-per-job place for results. Implemented by the library service.
 */
export interface ToolMediaPort {
  /**
   * Resolves what the user picked (a library item id, one of our signed
   * URLs, or a public URL fetched safely) to a local file in dir.
   * `originalUrl` is what the response reports as original_url.
   */
  resolveInput(
    userId: string,
    ref: string,
    kind: 'image' | 'video',
    dir: string,
    /** The run: a remote source it had fetched before it started is read from where it was kept. */
    jobId?: string,
  ): Promise<{ media: LocalMedia; originalUrl: string; itemId: string | null }>;

  /** Whether the source is fetched from another server (such a run has its source fetched before it starts). */
  isRemoteSource?(ref: string): boolean;
  /**
   * Fetches a run's remote source under the source deadline and keeps it for the run. Throws
   * ProviderError (retryable or not) when the source cannot be had: the run fails, refunded.
   */
  stageSource?(userId: string, jobId: string, ref: string, kind: 'image' | 'video'): Promise<void>;
  /** Drops what stageSource kept (the run ended). */
  discardStaged?(userId: string, jobId: string): Promise<void>;

  /**
   * Refuses, before any charge, a source the run could only fail on: a library item or link that
   * is not the caller's (or does not exist), not ready, of the other kind or over the size limit,
   * or a URL the import rules refuse (form and address). Throws AppError (4xx). Answers the
   * source's displayed size when it is known (a library image), for checks of a target size.
   */
  checkSource(userId: string, ref: string, kind: 'image' | 'video'): Promise<{ width: number; height: number } | null>;

  /** Saves a result into the library; called again for the same job it returns the same item. */
  saveResult(input: {
    userId: string;
    jobId: string;
    output: MediaOutput & { durationSeconds?: number };
    kind: 'image' | 'video';
    generationType: string;
    originalName: string;
    originalImageUrl: string | null;
    prompt: string | null;
    /** The library item the run read, when it was one (versions). */
    sourceItemId?: string | null;
  }): Promise<{ itemId: string }>;

  /** Removes an item saved for a job that did not win (cancelled meanwhile). */
  discardResult(userId: string, itemId: string): Promise<void>;

  /** A fresh signed URL for an item of the user, or null when it has none (pending). */
  itemUrl(userId: string, itemId: string): Promise<string | null>;

  /** A pending library entry shown while a video generates (requirements §4 pending video). */
  createPending?(input: { userId: string; jobId: string; originalName: string; generationType: string; prompt: string }): Promise<void>;
  /** Points an existing pending entry at a new run of the same inputs (a retry). */
  reattachPending?(userId: string, itemId: string, jobId: string): Promise<void>;
  /** Marks the pending entry of a job as failed (it stays, with a retry action). */
  failPending?(userId: string, jobId: string, error: string): Promise<void>;
}
