/**
 * The only place that talks to @fal-ai/client: storage upload and the queue
 * (submit, status, result, cancel). Small functions so tests can drive a fake
 * fal server through `apiBase`.
 *
 * How the client builds URLs (1.10.x): queue calls go to
 * `https://queue.fal.run/{owner}/{alias}[/{subpath}]` (status, result and
 * cancel drop the subpath: `/{owner}/{alias}/requests/{id}[/status|/cancel]`),
 * the storage initiate to `https://rest.fal.ai/storage/upload/initiate`. All
 * of them pass `requestMiddleware`, which rewrites the origin to `apiBase`.
 * The upload PUT goes straight to the `upload_url` fal handed out (no
 * middleware, no auth header), with the configured `fetch`.
 */
import fs from 'node:fs';
import { createFalClient, type FalClient, type QueueStatus, type RequestMiddleware } from '@fal-ai/client';
import type { LocalMedia } from '../ai-provider.js';
import { FalRequestFailed } from './errors.js';

export interface FalTransportOptions {
  apiKey: string;
  /** Replaces https://queue.fal.run, https://rest.fal.ai and https://fal.run (tests: a local fake). */
  apiBase?: string;
  fetch?: typeof fetch;
}

export interface Submitted {
  requestId: string;
  queuePosition?: number;
}

export interface FalTransport {
  /** Uploads a local file to fal storage; returns the URL fal's models read it from. */
  upload(file: LocalMedia, signal: AbortSignal): Promise<string>;
  submit(endpointId: string, input: Record<string, unknown>, signal: AbortSignal): Promise<Submitted>;
  status(endpointId: string, requestId: string, signal: AbortSignal): Promise<QueueStatus>;
  /** The model output; throws FalRequestFailed when the request ended in failure. */
  result(endpointId: string, requestId: string, signal: AbortSignal): Promise<unknown>;
  cancel(endpointId: string, requestId: string, signal: AbortSignal): Promise<void>;
}

const FAL_ORIGINS = /^https:\/\/(?:queue\.fal\.run|rest\.fal\.ai|fal\.run)(?=[/?]|$)/;

export function rewriteUrl(url: string, apiBase: string | undefined): string {
  if (!apiBase) return url;
  return url.replace(FAL_ORIGINS, apiBase.replace(/\/+$/, ''));
}

/** GET {queue}/{owner}/{alias}/requests/{id}: the result call. */
const RESULT_PATH = /\/requests\/[^/?]+\/?(?:\?|$)/;

function parseBool(v: string | null): boolean | null {
  if (v === null) return null;
  const s = v.trim().toLowerCase();
  if (s === 'true' || s === '1' || s === 'yes') return true;
  if (s === 'false' || s === '0' || s === 'no') return false;
  return null;
}

/**
 * Wraps fetch so that (1) a failed result call keeps fal's headers
 * (X-Fal-Retryable, X-Fal-Error-Type), which the client's ApiError drops,
 * and is not retried by the client with backoff (the request is COMPLETED:
 * asking again returns the same failure, with or without headers), and (2) an extra signal (the run's)
 * reaches calls the client issues without one (the storage PUT).
 */
function wrapFetch(base: typeof fetch, extraSignal?: AbortSignal): typeof fetch {
  const wrapped = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    let signal = init?.signal ?? undefined;
    if (extraSignal) signal = signal ? AbortSignal.any([signal, extraSignal]) : extraSignal;
    const res = await base(input, signal ? { ...init, signal } : init);
    const method = (init?.method ?? 'GET').toUpperCase();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (res.ok || method !== 'GET' || !RESULT_PATH.test(url)) return res;
    const retryableHeader = parseBool(res.headers.get('x-fal-retryable'));
    const errorTypeHeader = res.headers.get('x-fal-error-type');
    // 429 is about this call, not the request: the client waits and asks again.
    // Anything else is the request's own ending; asking again would poll a
    // finished failure, so it is classified (by status when fal gave no
    // headers) and, for a 5xx, resubmitted by the provider.
    if (res.status === 429 && retryableHeader === null && !errorTypeHeader) return res;
    let body: unknown;
    try {
      const text = await res.text();
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    const bodyType = (body as Record<string, unknown> | null)?.error_type;
    throw new FalRequestFailed(res.status, body, retryableHeader, errorTypeHeader ?? (typeof bodyType === 'string' ? bodyType : null));
  };
  return wrapped as typeof fetch;
}

export function createFalTransport(opts: FalTransportOptions): FalTransport {
  const baseFetch = opts.fetch ?? globalThis.fetch;
  const middleware: RequestMiddleware = async (request) => ({
    ...request,
    url: rewriteUrl(request.url, opts.apiBase),
  });
  const client = (extraSignal?: AbortSignal): FalClient =>
    createFalClient({
      credentials: opts.apiKey,
      requestMiddleware: middleware,
      fetch: wrapFetch(baseFetch, extraSignal),
    });
  const shared = client();

  return {
    async upload(file, signal) {
      const blob = await fs.openAsBlob(file.path, { type: file.contentType });
      // A client bound to the run's signal: the client's own PUT has none.
      return client(signal).storage.upload(blob);
    },
    async submit(endpointId, input, signal) {
      const queued = await shared.queue.submit(endpointId, { input, abortSignal: signal });
      return { requestId: queued.request_id, queuePosition: queued.queue_position };
    },
    status(endpointId, requestId, signal) {
      return shared.queue.status(endpointId, { requestId, logs: true, abortSignal: signal });
    },
    async result(endpointId, requestId, signal) {
      const res = await shared.queue.result(endpointId, { requestId, abortSignal: signal });
      return res.data;
    },
    cancel(endpointId, requestId, signal) {
      return shared.queue.cancel(endpointId, { requestId, abortSignal: signal });
    },
  };
}
