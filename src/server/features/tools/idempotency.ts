import { createHash } from 'node:crypto';
import { AppError } from '../../core/errors.js';
import { toolErrors } from './tools.messages.js';

/** A client's Idempotency-Key, trimmed; null when none was sent. */
export function checkedIdempotencyKey(raw: string | undefined): string | null {
  const key = raw?.trim() || null;
  if (key !== null && (key.length > 200 || !/^[\x21-\x7e]+$/.test(key))) {
    throw new AppError('validation', toolErrors.idempotencyKeyInvalid);
  }
  return key;
}

/** What an Idempotency-Key replay must match: the tool and its parsed input, key order aside. */
export const requestHashOf = (endpoint: string, input: unknown): string =>
  createHash('sha256').update(`${endpoint}\n${canonical(input)}`).digest('hex');

const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
