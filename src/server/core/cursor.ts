import { z } from 'zod';
import { AppError } from './errors.js';

/**
 * The one cursor codec of every list endpoint. A cursor is the last row's
 * position in the list's order, as a base64url JSON array: opaque to callers,
 * so the order key may change without changing the API. A cursor this server
 * did not issue is a 400, never "from the start" and never a 500.
 */

export const INVALID_CURSOR = 'Invalid cursor';

/** The `cursor` query parameter; bounded so it cannot carry a payload. */
export const cursorParam = z.string().max(200).optional();

type CursorKey = readonly (string | number)[];

/** Order by a bigint sequence or serial id: `[seq]`. */
export const seqKey = z.tuple([z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)]);

/**
 * Order by (created_at, id): `[microseconds since the epoch as text, uuid]`.
 * Microseconds, not an ISO string, because a JS Date keeps only milliseconds
 * and a rounded key would skip or repeat rows created in the same millisecond.
 */
export const createdKey = z.tuple([z.string().regex(/^-?\d{1,19}$/), z.uuid()]);

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<K extends CursorKey>(cursor: string, key: z.ZodType<K>): K {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('validation', INVALID_CURSOR);
  }
  const parsed = key.safeParse(raw);
  if (!parsed.success) throw new AppError('validation', INVALID_CURSOR);
  return parsed.data;
}

/** Decodes an optional cursor: undefined means the first page. */
export function decodeOptionalCursor<K extends CursorKey>(cursor: string | null | undefined, key: z.ZodType<K>): K | undefined {
  return cursor ? decodeCursor(cursor, key) : undefined;
}

/**
 * Callers fetch `limit + 1` rows: the extra one says whether a next page
 * exists, and the last row kept is where it starts.
 */
export function pageOf<Row>(rows: Row[], limit: number, keyOf: (row: Row) => CursorKey): { rows: Row[]; next_cursor: string | null } {
  const kept = rows.slice(0, limit);
  const last = kept.at(-1);
  return { rows: kept, next_cursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}
