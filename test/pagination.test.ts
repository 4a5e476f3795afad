import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdKey, decodeCursor, encodeCursor, pageOf, seqKey } from '../src/server/core/cursor.js';
import { AppError } from '../src/server/core/errors.js';
import { appWithUser, type TestApp, type TestUser } from './helpers/test-app.js';

/**
 * One list shape and one cursor codec: every GET in the OpenAPI document that
 * takes a `cursor` answers `{ items, next_cursor }`, and refuses a cursor it
 * did not issue with a 400 in our words.
 */
let t: TestApp;
let admin: TestUser;

beforeAll(async () => ({ t, user: admin } = await appWithUser({ role: 'admin' })));
afterAll(() => t.close());

describe('cursor codec', () => {
  it('round-trips a key and refuses anything else with a 400', () => {
    const key = ['1763856000123456', '0b6f4f3e-8f1c-4d7e-9a52-2f3c4b5a6d7e'] as const;
    expect(decodeCursor(encodeCursor(key), createdKey)).toEqual(key);
    expect(decodeCursor(encodeCursor([42]), seqKey)).toEqual([42]);
    for (const bad of ['', 'bm9wZQ', encodeCursor([0]), encodeCursor(['42']), encodeCursor(key), '%%%']) {
      const refusal = (() => {
        try {
          decodeCursor(bad, seqKey);
        } catch (err) {
          return err;
        }
      })();
      expect(refusal).toBeInstanceOf(AppError);
      expect(refusal).toMatchObject({ code: 'validation', message: 'Invalid cursor', status: 400 });
    }
  });

  it('pages limit + 1 rows: the extra row only says a next page exists', () => {
    const rows = [{ seq: 5 }, { seq: 4 }, { seq: 3 }];
    expect(pageOf(rows, 2, (r) => [r.seq])).toEqual({ rows: rows.slice(0, 2), next_cursor: encodeCursor([4]) });
    expect(pageOf(rows, 3, (r) => [r.seq])).toEqual({ rows, next_cursor: null });
  });
});

describe('every list endpoint', () => {
  const listPaths = () => {
    const doc = t.app.swagger() as { paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }> };
    return Object.entries(doc.paths)
      .filter(([path, ops]) => !path.includes('{') && ops.get?.parameters?.some((p) => p.in === 'query' && p.name === 'cursor'))
      .map(([path]) => path);
  };

  it('the document lists the known lists (so the checks below cover them)', () => {
    expect(listPaths()).toEqual(
      expect.arrayContaining([
        '/api/jobs',
        '/api/transactions',
        '/api/library',
        '/api/webhook-deliveries',
        '/api/invites',
        '/api/referrals',
        '/api/admin/invites',
        '/api/admin/referrals',
        '/api/admin/audit',
        '/api/admin/users',
      ]),
    );
  });

  it('answers { items, next_cursor } and a 400 in our words for a forged cursor', async () => {
    for (const path of listPaths()) {
      const ok = await t.app.inject({ url: path, headers: admin.headers });
      expect(ok.statusCode, path).toBe(200);
      const body = ok.json();
      expect(Array.isArray(body.items), path).toBe(true);
      expect(body.next_cursor === null || typeof body.next_cursor === 'string', path).toBe(true);

      for (const forged of ['bm90LWEtY3Vyc29y', encodeCursor([Number.MAX_SAFE_INTEGER, 'x'])]) {
        const bad = await t.app.inject({ url: `${path}?cursor=${forged}`, headers: admin.headers });
        expect(bad.statusCode, path).toBe(400);
        expect(bad.json(), path).toMatchObject({ error: 'Invalid cursor', code: 'validation' });
      }
    }
  });
});
