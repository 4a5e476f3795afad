import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, errorStatus } from '../src/server/core/errors.js';
import { appWithUser, type TestApp, type TestUser } from './helpers/test-app.js';

/**
 * Own error codes only: the framework's refusals answer our JSON error shape
 * with a code from the one code -> status map, and the OpenAPI document lists
 * exactly those codes.
 */
let t: TestApp;
let user: TestUser;

beforeAll(async () => ({ t, user } = await appWithUser()));
afterAll(() => t.close());

const documentedCodes = () => {
  const doc = t.app.swagger() as unknown as { components: { schemas: { ErrorCode: { enum: string[] } } } };
  return doc.components.schemas.ErrorCode.enum;
};

function expectOurError(res: { statusCode: number; json(): unknown; body: string }, code: keyof typeof errorStatus) {
  expect(res.statusCode).toBe(errorStatus[code]);
  expect(res.json()).toEqual({ error: expect.any(String), code, request_id: expect.any(String) });
  expect(res.body).not.toMatch(/FST_|fastify/i);
  expect(documentedCodes()).toContain(code);
}

describe('framework refusals in our codes', () => {
  it('a body of a content type the route does not take is unsupported_media_type', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/invites', headers: { ...user.headers, 'content-type': 'application/xml' }, payload: '<invite max_uses="1"/>' });
    expectOurError(res, 'unsupported_media_type');
  });

  it('a body over the limit is payload_too_large', async () => {
    const payload = JSON.stringify({ max_uses: 1, padding: 'x'.repeat(1024 * 1024 + 1) });
    const res = await t.app.inject({ method: 'POST', url: '/api/invites', headers: { ...user.headers, 'content-type': 'application/json' }, payload });
    expectOurError(res, 'payload_too_large');
  });

  it('malformed or empty JSON is bad_request, in our words', async () => {
    for (const payload of ['{"max_uses": 1', '']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/invites', headers: { ...user.headers, 'content-type': 'application/json' }, payload });
      expectOurError(res, 'bad_request');
      expect((res.json() as { error: string }).error).toBe('The request body is not valid JSON');
    }
  });

  it('an unknown route is not_found; a schema refusal is validation', async () => {
    expectOurError(await t.app.inject({ url: '/api/no-such-thing', headers: user.headers }), 'not_found');
    expectOurError(await t.app.inject({ method: 'DELETE', url: '/api/transactions', headers: user.headers }), 'not_found');
    expectOurError(await t.app.inject({ url: '/api/jobs?limit=0', headers: user.headers }), 'validation');
  });
});

describe('the code list', () => {
  it('the OpenAPI document lists every code of the map, and only those', () => {
    expect([...documentedCodes()].sort()).toEqual([...ERROR_CODES].sort());
  });
});
