import { accessMessages } from '../../shared/access.messages.js';
import { authMessages } from '../../shared/auth.messages.js';
import { inputMessages } from '../../shared/limits.messages.js';
import { AppError, ERROR_CODES, errorStatus, type ErrorCode } from '../core/errors.js';

/** Fastify's own refusals, in our codes: no framework name reaches a caller. */
const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_CTP_INVALID_JSON_BODY: 'bad_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'bad_request',
  FST_ERR_NOT_FOUND: 'not_found',
};

const MALFORMED_JSON = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

/** Our words for a refusal the framework raised (its own words name its internals). */
const WORDS: Partial<Record<ErrorCode, string>> = {
  not_found: accessMessages.notFound,
  payload_too_large: inputMessages.bodyTooLarge,
  unsupported_media_type: inputMessages.unsupportedMediaType,
  unauthenticated: accessMessages.notAuthenticated,
  forbidden: accessMessages.forbidden,
  rate_limited: authMessages.tooManyAttempts,
};

/** The first of our codes with this status; a client error we have no code for is a bad request. */
const codeForStatus = (status: number): ErrorCode => ERROR_CODES.find((code) => errorStatus[code] === status) ?? 'bad_request';

/** A client error that Fastify or a plugin raised (not an AppError), as ours. */
export function fromFrameworkError(err: { code?: string; statusCode?: number }): AppError {
  if (err.code && MALFORMED_JSON.has(err.code)) return new AppError('bad_request', inputMessages.malformedJson);
  const code = (err.code && FRAMEWORK_CODES[err.code]) || codeForStatus(err.statusCode ?? 400);
  return new AppError(code, WORDS[code] ?? inputMessages.malformedRequest);
}
