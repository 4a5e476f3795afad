import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDollars, startCheckout } from './paymentsApi';
import { parseBaseCost, parseWholeNumber } from '../admin/adminApi';

function respond(status: number, body?: unknown) {
  return vi.fn(async () => new Response(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body), { status }));
}

afterEach(() => vi.unstubAllGlobals());

describe('startCheckout (requirements §8 purchase errors)', () => {
  it('sends the spec body and returns the redirect url', async () => {
    const fetchMock = respond(200, { url: 'https://pay.example/cs_1', session_id: 'cs_1' });
    vi.stubGlobal('fetch', fetchMock);
    await expect(startCheckout('price_x', 'http://app.test')).resolves.toBe('https://pay.example/cs_1');
    const [req] = fetchMock.mock.calls[0] as unknown as [Request];
    expect(new URL(req.url).pathname).toBe('/functions/v1/stripe-checkout');
    expect(await req.json()).toEqual({
      price_id: 'price_x',
      mode: 'payment',
      success_url: 'http://app.test/success',
      cancel_url: 'http://app.test/dashboard',
    });
  });

  it.each([
    ['the server error field', respond(503, { error: 'Purchases are currently unavailable' }), 'Purchases are currently unavailable'],
    ['a failure without words', respond(500), 'Failed to create checkout session'],
    ['a 401 without words', respond(401), 'No authentication token found'],
    ['an answer without url', respond(200, { session_id: 'x' }), 'No checkout URL received'],
    ['an empty url', respond(200, { url: '' }), 'No checkout URL received'],
  ])('%s', async (_name, fetchMock, message) => {
    vi.stubGlobal('fetch', fetchMock);
    await expect(startCheckout('price_x', 'http://app.test')).rejects.toThrow(message);
  });

  it('a network failure is "Purchase failed"', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))));
    await expect(startCheckout('price_x', 'http://app.test')).rejects.toThrow('Purchase failed');
  });
});

describe('admin number fields (requirements §5)', () => {
  it('base cost: integer, a non-number becomes 0, never below 0', () => {
    expect(parseBaseCost('12')).toBe(12);
    expect(parseBaseCost('')).toBe(0);
    expect(parseBaseCost('abc')).toBe(0);
    expect(parseBaseCost('2.9')).toBe(2);
    expect(parseBaseCost('-4')).toBe(0);
  });
  it('plan energy and bonus: whole numbers >= 0 only', () => {
    expect(parseWholeNumber('0')).toBe(0);
    expect(parseWholeNumber(' 50 ')).toBe(50);
    expect(parseWholeNumber('')).toBeUndefined();
    expect(parseWholeNumber('1.5')).toBeUndefined();
    expect(parseWholeNumber('-1')).toBeUndefined();
  });
  it('dollars', () => {
    expect(formatDollars(1000)).toBe('$10');
    expect(formatDollars(150)).toBe('$1.50');
  });
});
