import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, apiPost, errorMessage } from './api';
import { toActiveProduct } from '../features/payments/useActiveProduct';

function respond(status: number, body: unknown) {
  return vi.fn(async () => new Response(body === undefined ? '' : JSON.stringify(body), { status }));
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

describe('api', () => {
  it('sends JSON with the session cookie and parses the answer', async () => {
    const fetchMock = respond(200, { ok: true });
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiPost('/api/x', { a: 1 })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/x');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{"a":1}');
  });

  it('sends no content type for a POST without a body', async () => {
    const fetchMock = respond(200, { isVip: false });
    vi.stubGlobal('fetch', fetchMock);
    await apiPost('/functions/v1/check-vip-status');
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
    expect(init.body).toBeUndefined();
  });

  it('throws ApiError with the server message, status and code', async () => {
    vi.stubGlobal('fetch', respond(409, { error: 'An account with this email already exists', code: 'conflict' }));
    const err = await caught(api('/api/auth/sign-up/email', { method: 'POST', body: {} }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('An account with this email already exists');
    expect(err.status).toBe(409);
    expect(err.code).toBe('conflict');
    expect(errorMessage(err)).toBe('An account with this email already exists');
  });

  it('falls back to the spec message when the server says nothing useful', async () => {
    vi.stubGlobal('fetch', respond(502, undefined));
    const err = await caught(api('/api/me'));
    expect(err.status).toBe(502);
    expect(errorMessage(err)).toBe('An unexpected error occurred');
  });

  it('reports network failures as status 0', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const err = await caught(api('/api/me'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(0);
    expect(errorMessage(err)).toBe('An unexpected error occurred');
  });
});

describe('toActiveProduct', () => {
  it('reads the known shapes', () => {
    expect(toActiveProduct(null)).toBeNull();
    expect(toActiveProduct({ name: 'Pro', isActive: true })).toEqual({ name: 'Pro', isActive: true });
    expect(toActiveProduct({ product: { name: 'Pro', isActive: false } })).toEqual({ name: 'Pro', isActive: false });
    expect(toActiveProduct({ plan_name: 'Starter', subscription_status: 'active' })).toEqual({ name: 'Starter', isActive: true });
    expect(toActiveProduct({ plan_name: 'Starter', subscription_status: 'canceled' })).toEqual({ name: 'Starter', isActive: false });
    expect(toActiveProduct({ price_id: 'price_1', subscription_status: 'active' })).toBeNull();
    expect(toActiveProduct({ subscription: null })).toBeNull();
    expect(
      toActiveProduct({ subscription: { price_id: 'p', subscription_status: 'active', plan_name: 'Pro', is_active: true } }),
    ).toEqual({ name: 'Pro', isActive: true });
    expect(
      toActiveProduct({ subscription: { price_id: 'p', subscription_status: 'past_due', plan_name: 'Pro', is_active: false } }),
    ).toEqual({ name: 'Pro', isActive: false });
  });
});
