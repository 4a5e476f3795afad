/**
 * Typed error codes with one code -> HTTP status map: the only codes an
 * answer carries (the framework's own are mapped to these) and the list the
 * OpenAPI document publishes. Services throw AppError with the spec's words;
 * the error handler turns it into `{error, code}` with the mapped status.
 */
export const errorStatus = {
  /** The request could not be read: malformed JSON or headers. */
  bad_request: 400,
  validation: 400,
  unauthenticated: 401,
  insufficient_energy: 402,
  forbidden: 403,
  email_unverified: 403,
  /** The account was suspended by an admin: sign-in and every run are refused. */
  account_suspended: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  /** A tool run that ended without a result (refunded). */
  tool_failed: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const ERROR_CODES = Object.keys(errorStatus) as ErrorCode[];

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Response headers that belong to the refusal (Retry-After on a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

