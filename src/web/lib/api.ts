import { createSessionClient } from '@pixelrush/client';
import { appMessages } from '../../shared/app.messages.js';

/**
 * The one door to the backend: same origin, the httpOnly session cookie
 * (credentials 'include'), JSON in and out. A non-2xx answer throws ApiError
 * carrying the server's `{error, code}` so screens can show the spec's words.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    /** True when `message` is the server's own `error` text. */
    readonly fromServer: boolean,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The typed client over the server's OpenAPI document (packages/client): every
 * path, parameter, body and answer is checked against what the server declares.
 * Call it through `call`, which turns a non-2xx answer into an ApiError:
 *
 *   const me = await call(client.GET('/api/me'));
 */
// openapi-fetch builds a Request, which needs an absolute address.
const origin = typeof location === 'undefined' ? 'http://localhost' : location.origin;
// Looked up at each call (not once at load), so a page or test that swaps fetch is honoured.
const session = { fetch: (request: RequestInfo | URL) => globalThis.fetch(request) };

export const client = createSessionClient(origin, session);

/**
 * A tool's run call, POST /functions/v1/<tool>: the document the web is built against lists the
 * built-in tools' paths only, so a run is typed by its tool's own schemas instead (the web tool
 * registry's contract: the body is checked before it is sent, the answer read with the tool's answer
 * schema). The same session and the same client otherwise.
 */
interface ToolRunPaths {
  [run: `/functions/v1/${string}`]: {
    post: {
      parameters: {
        query?: never;
        header: { 'idempotency-key': string; prefer?: 'respond-async' };
        path?: never;
        cookie?: never;
      };
      requestBody: { content: { 'application/json': unknown } };
      responses: { default: { headers: Record<string, unknown>; content: { 'application/json': unknown } } };
    };
  };
}

export const toolRuns = createSessionClient<ToolRunPaths>(origin, session);

/** What every client call resolves to: `data` on 2xx, `error` (the parsed body) otherwise. */
interface Answer<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/** The answer of a client call, or an ApiError carrying the server's `{error, code}`. */
export async function call<D>(request: Promise<Answer<D>>): Promise<D> {
  let answer: Answer<D>;
  try {
    answer = await request;
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new ApiError('Could not reach the server. Check your connection and try again.', 0, 'network', false);
  }
  const { response } = answer;
  if (!response.ok) {
    const data = answer.error;
    const obj = data && typeof data === 'object' ? (data as { error?: unknown; code?: unknown }) : {};
    const serverMessage = typeof obj.error === 'string' && obj.error ? obj.error : undefined;
    throw new ApiError(
      serverMessage ?? `Request failed (${response.status} ${response.statusText || 'error'})`,
      response.status,
      typeof obj.code === 'string' ? obj.code : undefined,
      !!serverMessage,
      data,
    );
  }
  return answer.data as D;
}

/** The text to show for a failure: the server's words, else the spec's fallback. */
export function errorMessage(err: unknown, fallback: string = appMessages.unexpected): string {
  if (err instanceof ApiError) return err.fromServer ? err.message : fallback;
  return fallback;
}

/** Like errorMessage, but keeps our own description of non-server failures (network, HTTP status). */
export function describeError(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  return appMessages.unexpected;
}

