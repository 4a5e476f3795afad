import type { FastifyInstance } from 'fastify';
import { inputMessages } from '../../shared/limits.messages.js';
import { AppError } from '../core/errors.js';

/** Deeper than any request of ours; bounds the walk (and the work a body can cause). */
const MAX_DEPTH = 32;

// NUL cannot be stored in Postgres text; a lone surrogate half is not a character in any encoding.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a decoded request part cannot be accepted, or null. Iterative: a deep body cannot overflow the stack. */
export function hostileInput(value: unknown): string | null {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (UNSTORABLE.test(v)) return inputMessages.unstorable;
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return inputMessages.numberOutOfRange;
    } else if (v && typeof v === 'object') {
      if (depth >= MAX_DEPTH) return inputMessages.tooDeep;
      for (const [k, child] of Object.entries(v)) {
        if (UNSTORABLE.test(k)) return inputMessages.unstorable;
        stack.push({ v: child, depth: depth + 1 });
      }
    }
  }
  return null;
}

/**
 * One gate for every route: the decoded query string, path parameters and
 * parsed body are refused with 400 when they hold what the database cannot
 * store (NUL, lone surrogates), numbers JSON turned into Infinity, or
 * nesting deeper than any request needs. Runs before schema validation, so
 * no route has to remember it.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    const reason = hostileInput(req.params) ?? hostileInput(req.query) ?? hostileInput(req.body);
    if (reason) throw new AppError('validation', reason);
  });
}
