import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';

/**
 * One id per request: in the X-Request-Id response header, in error bodies
 * (`request_id`), and in every log line written while the request is being
 * handled, including lines from services that only hold the app's logger.
 */
const current = new AsyncLocalStorage<string>();

export const REQUEST_ID_HEADER = 'x-request-id';
export const REQUEST_ID_LOG_KEY = 'request_id';
const SAFE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** A proxy's id is kept when the proxy is trusted (TRUST_PROXY), else a fresh one. */
export function requestIdGenerator(trustProxy: boolean) {
  return (req: IncomingMessage): string => {
    const given = req.headers[REQUEST_ID_HEADER];
    return trustProxy && typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
  };
}

/** Runs the rest of a request's handling with its id in scope. */
export function runWithRequestId(id: string, fn: () => void): void {
  current.run(id, fn);
}

/** pino mixin: adds the request id to lines from loggers that do not carry it already. */
export function requestIdMixin(_obj: object, _level: number, logger: Logger): object {
  const id = current.getStore();
  if (!id) return {};
  return REQUEST_ID_LOG_KEY in logger.bindings() ? {} : { [REQUEST_ID_LOG_KEY]: id };
}
