import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call, client, errorMessage } from './api';

function respond(status: number, body: unknown) {
  return vi.fn(async (_req: Request) => new Response(body === undefined ? '' : JSON.stringify(body), { status }));
}

afterEach(() => vi.unstubAllGlobals());

/** The ApiError a call rejects with. */
async function caught(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected the call to fail');
}

describe('call(client...)', () => {
  it('sends JSON with the session cookie and parses the answer', async () => {
    const fetchMock = respond(200, { id: 'k1', name: 'ci', prefix: 'prk_x', key: 'prk_secret', created_at: 'now', last_used_at: null });
    vi.stubGlobal('fetch', fetchMock);
    await expect(call(client.POST('/api/keys', { body: { name: 'ci' } }))).resolves.toMatchObject({ id: 'k1' });
    const req = fetchMock.mock.calls[0][0];
    expect(new URL(req.url).pathname).toBe('/api/keys');
    expect(req.method).toBe('POST');
    expect(req.credentials).toBe('include');
    expect(req.headers.get('Content-Type')).toBe('application/json');
    expect(await req.text()).toBe('{"name":"ci"}');
  });

  it('sends no content type for a POST without a body, and path parameters encoded', async () => {
    const fetchMock = respond(200, { isVip: false });
    vi.stubGlobal('fetch', fetchMock);
    await call(client.POST('/functions/v1/check-vip-status'));
    const req = fetchMock.mock.calls[0][0];
    expect(req.headers.get('Content-Type')).toBeNull();
    expect(req.body).toBeNull();

    vi.stubGlobal('fetch', respond(200, {}));
    const del = vi.mocked(globalThis.fetch);
    await call(client.DELETE('/api/keys/{id}', { params: { path: { id: 'a/b' } } }));
    expect(new URL((del.mock.calls[0][0] as Request).url).pathname).toBe('/api/keys/a%2Fb');
  });

  it('throws ApiError with the server message, status and code', async () => {
    vi.stubGlobal('fetch', respond(409, { error: 'An account with this email already exists', code: 'conflict' }));
    const err = await caught(call(client.POST('/api/auth/sign-up/email', { body: { email: 'a@b.c', password: 'x', name: 'A' } })));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('An account with this email already exists');
    expect(err.status).toBe(409);
    expect(err.code).toBe('conflict');
    expect(errorMessage(err)).toBe('An account with this email already exists');
  });

  it('falls back to the spec message when the server says nothing useful', async () => {
    vi.stubGlobal('fetch', respond(502, undefined));
    const err = await caught(call(client.GET('/api/me')));
    expect(err.status).toBe(502);
    expect(errorMessage(err)).toBe('An unexpected error occurred');
  });

  it('reports network failures as status 0', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const err = await caught(call(client.GET('/api/me')));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(0);
    expect(errorMessage(err)).toBe('An unexpected error occurred');
  });
});
