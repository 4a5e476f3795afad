/**
 * fal failures -> ProviderError(user-facing message, retryable).
 *
 * fal reports a failed request as COMPLETED; the failure shows only on the
 * result call, as a non-2xx answer with either
 *   {detail: [{loc, msg, type}]}            model / validation errors (422)
 *   {detail: "...", error_type: "..."}      request errors (timeouts, runners)
 * and the headers X-Fal-Retryable / X-Fal-Error-Type. Messages never carry
 * the API key, URLs, stack traces or raw bodies beyond fal's own `msg`/`detail`.
 */
import { ApiError } from '@fal-ai/client';
import { ProviderError } from '../ai-provider.js';

/** A result call that answered with fal's failure shape: the remote request itself failed. */
export class FalRequestFailed extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** X-Fal-Retryable, when fal sent it. */
    readonly retryableHeader: boolean | null,
    /** X-Fal-Error-Type or the body's error_type. */
    readonly errorType: string | null,
  ) {
    super(`fal request failed with HTTP ${status}${errorType ? ` (${errorType})` : ''}`);
    this.name = 'FalRequestFailed';
  }
}

/** ProviderError that also says whether the remote request ended in failure (not a transport problem). */
export class FalProviderError extends ProviderError {
  constructor(
    message: string,
    retryable: boolean,
    /** The remote request is known to have failed or to be unknown to fal: a new submission is safe. */
    readonly remoteGone = false,
    readonly status?: number,
    /**
     * The request failed with a 5xx and fal said nothing more (no retry
     * headers, no error type): a new request may well succeed, so the
     * provider submits one at once, at most once per run.
     */
    readonly resubmit = false,
  ) {
    super(message, retryable);
    this.name = 'ProviderError';
  }
}

/** Request error types (fal docs, "Request Error Types") that a new attempt may get past. */
const TRANSIENT_ERROR_TYPES = new Set([
  'request_timeout',
  'startup_timeout',
  'runner_scheduling_failure',
  'runner_connection_timeout',
  'runner_disconnected',
  'runner_connection_refused',
  'runner_connection_error',
  'runner_incomplete_response',
  'internal_error',
]);

const MAX_MESSAGE = 400;

/** Removes the key, control characters, URLs and excess length from text fal gave us. */
export function sanitize(text: string, secrets: readonly string[]): string {
  let s = text;
  for (const secret of secrets) if (secret) s = s.split(secret).join('[redacted]');
  s = s
    .replace(/Key\s+[^\s"']+/gi, 'Key [redacted]')
    .replace(/https?:\/\/\S+/gi, '[url]')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE - 1)}…` : s;
}

interface DetailItem {
  loc?: unknown;
  msg?: unknown;
  type?: unknown;
}

function detailItems(body: unknown): DetailItem[] | null {
  const detail = (body as Record<string, unknown> | null)?.detail;
  return Array.isArray(detail) ? (detail as DetailItem[]) : null;
}

function fieldOf(loc: unknown): string | null {
  if (!Array.isArray(loc)) return null;
  const parts = loc.filter((p) => p !== 'body' && (typeof p === 'string' || typeof p === 'number'));
  return parts.length ? parts.join('.') : null;
}

/** The user-facing text for fal's `detail`, whichever shape it has. */
function describeDetail(body: unknown, secrets: readonly string[]): { text: string | null; contentPolicy: boolean } {
  const items = detailItems(body);
  if (items) {
    const contentPolicy = items.some((d) => typeof d.type === 'string' && /content_policy|nsfw|safety/i.test(d.type));
    const msgs = items
      .map((d) => {
        const msg = typeof d.msg === 'string' ? d.msg : null;
        if (!msg) return null;
        const field = fieldOf(d.loc);
        return field ? `${field}: ${msg}` : msg;
      })
      .filter((m): m is string => !!m);
    return { text: msgs.length ? sanitize(msgs.join('; '), secrets) : null, contentPolicy };
  }
  const detail = (body as Record<string, unknown> | null)?.detail ?? (body as Record<string, unknown> | null)?.message;
  return { text: typeof detail === 'string' && detail.trim() ? sanitize(detail, secrets) : null, contentPolicy: false };
}

/** Maps a failed result call (the remote request failed) to a ProviderError. */
export function requestFailureToProviderError(err: FalRequestFailed, secrets: readonly string[]): FalProviderError {
  const { text, contentPolicy } = describeDetail(err.body, secrets);
  const errorType = err.errorType;
  let retryable: boolean;
  if (err.retryableHeader !== null) retryable = err.retryableHeader;
  else if (errorType) retryable = TRANSIENT_ERROR_TYPES.has(errorType);
  else retryable = err.status === 429 || err.status >= 500;
  if (contentPolicy) {
    return new FalProviderError(
      `The AI service's content filter refused this request${text ? `: ${text}` : ''}. Try a different image or prompt.`,
      false,
      true,
      err.status,
    );
  }
  if (err.status === 422 || detailItems(err.body)) {
    return new FalProviderError(`The AI service rejected the input${text ? `: ${text}` : ''}`, retryable, true, err.status);
  }
  if (errorType === 'request_timeout' || errorType === 'startup_timeout') {
    return new FalProviderError(`The AI service timed out${text ? `: ${text}` : ''}`, retryable, true, err.status);
  }
  const bare5xx = err.retryableHeader === null && !errorType && err.status >= 500;
  return new FalProviderError(`The AI service could not finish this request${text ? `: ${text}` : ''}`, retryable, true, err.status, bare5xx);
}

/**
 * Maps anything a fal call threw (client ApiError, our FalRequestFailed,
 * network errors) to a ProviderError. Abort errors must be handled before.
 */
export function toProviderError(err: unknown, secrets: readonly string[], what: string): FalProviderError {
  if (err instanceof FalProviderError) return err;
  if (err instanceof FalRequestFailed) return requestFailureToProviderError(err, secrets);
  if (err instanceof ApiError) {
    const status = err.status;
    const { text } = describeDetail(err.body, secrets);
    if (status === 401 || status === 403) {
      return new FalProviderError('The AI service is not available right now (it refused our credentials).', false, false, status);
    }
    if (status === 404) {
      return new FalProviderError('The AI service could not find this request.', false, true, status);
    }
    if (status === 422 || detailItems(err.body)) {
      return new FalProviderError(`The AI service rejected the input${text ? `: ${text}` : ''}`, false, false, status);
    }
    if (status === 429) return new FalProviderError('The AI service is busy right now. Please try again shortly.', true, false, status);
    if (status >= 500) return new FalProviderError('The AI service is temporarily unavailable.', true, false, status);
    return new FalProviderError(`The AI service rejected the request${text ? `: ${text}` : ''}`, false, false, status);
  }
  if (err instanceof ProviderError) return new FalProviderError(err.message, err.retryable);
  // Network failures, DNS, resets, timeouts of our own: nothing worth showing but the gist.
  return new FalProviderError(`Could not reach the AI service (${what}).`, true);
}
