// @vitest-environment jsdom
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { CompareSlider } from '../../../components/CompareSlider';
import { upscalerInfo } from '../../../../tools/fal-upscaler/info.js';
import upscalerWeb from '../../../../tools/fal-upscaler/web';
import { useToolRun } from './useToolRun';

const upscaler = { info: upscalerInfo, ...upscalerWeb.contract };

/** What a call sent: its path (with the query), method, headers and body text. */
interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: string;
}

type Handler = (url: string, sent: Sent) => { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>;

const calls: Sent[] = [];

function stubFetch(handler: Handler) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const address = new URL(request.url);
      const sent = { url: address.pathname + address.search, method: request.method, headers: request.headers, body: await request.text() };
      calls.push(sent);
      if (request.signal.aborted) throw new DOMException('aborted', 'AbortError');
      const r = await handler(sent.url, sent);
      return new Response(r.body === undefined ? '' : JSON.stringify(r.body), { status: r.status });
    }),
  );
}

/** An upscaler answer as the server sends it. */
const upscaled = (job_id: string, upscaled_url: string) => ({
  job_id,
  library_item_id: 'i1',
  energy_used: 2,
  model: 'realesrgan',
  upscaled_url,
  original_url: '/o.png',
  scale_factor: 2,
});

function wrapper() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const invalidate = vi.spyOn(qc, 'invalidateQueries');
  const Wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
  return { Wrapper, invalidate };
}

const toolPosts = () => calls.filter((c) => c.url === '/functions/v1/fal-upscaler');
const keyOf = (c: Sent) => c.headers.get('Idempotency-Key');

beforeEach(() => {
  calls.length = 0;
  sessionStorage.clear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('useToolRun', () => {
  it('posts the body with an Idempotency-Key, shows the result, refreshes balance and library', async () => {
    stubFetch((url) => {
      if (url.startsWith('/api/jobs')) return { status: 200, body: { items: [] } };
      return { status: 200, body: upscaled('j1', '/u.png') };
    });
    const { Wrapper, invalidate } = wrapper();
    const { result } = renderHook(() => useToolRun(upscaler), { wrapper: Wrapper });
    act(() => result.current.submit({ image_url: 'item', scale: 2 }));
    expect(result.current.phase).toBe('processing');
    await waitFor(() => expect(result.current.phase).toBe('result'));
    expect(result.current.result).toMatchObject({ file: '/u.png', source: '/o.png', details: [{ label: 'Scale', value: '2x' }] });
    const [post] = toolPosts();
    expect(post.method).toBe('POST');
    expect(JSON.parse(post.body)).toEqual({ image_url: 'item', scale: 2 });
    expect(keyOf(post)).toMatch(/^[0-9a-f-]{36}$/);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['me'] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['library'] });
    expect(sessionStorage.length).toBe(0);
  });

  it('retries a dropped connection with the same key, and a second click never sends a second run', async () => {
    let n = 0;
    stubFetch((url) => {
      if (url.startsWith('/api/jobs')) return { status: 200, body: { items: [] } };
      n += 1;
      if (n === 1) throw new TypeError('network down');
      return { status: 200, body: upscaled('j1', '/u.png') };
    });
    const { Wrapper } = wrapper();
    const { result } = renderHook(() => useToolRun(upscaler), { wrapper: Wrapper });
    act(() => {
      result.current.submit({ image_url: 'item', scale: 2 });
      result.current.submit({ image_url: 'item', scale: 2 });
    });
    await waitFor(() => expect(result.current.phase).toBe('result'), { timeout: 5_000 });
    const posts = toolPosts();
    expect(posts).toHaveLength(2);
    expect(keyOf(posts[0])).toBe(keyOf(posts[1]));
  });

  it.each([
    [422, { error: 'URL is not allowed', job_id: 'j1' }, 'URL is not allowed', true],
    [402, { error: 'Insufficient ENERGY. You need at least 2 ENERGY to use Image Upscaler' }, 'Insufficient ENERGY. You need at least 2 ENERGY to use Image Upscaler', false],
    [500, {}, 'Failed to upscale image', false],
    [401, { error: 'whatever' }, 'No authentication token found', false],
  ])('HTTP %i shows %j as the error', async (status, body, text, refunded) => {
    stubFetch((url) => (url.startsWith('/api/jobs') ? { status: 200, body: { items: [] } } : { status, body }));
    const { Wrapper } = wrapper();
    const { result } = renderHook(() => useToolRun(upscaler), { wrapper: Wrapper });
    act(() => result.current.submit({ image_url: 'item', scale: 2 }));
    await waitFor(() => expect(result.current.phase).toBe('error'));
    expect(result.current.error).toBe(text);
    expect(result.current.refunded).toBe(refunded);
  });

  it.each([
    ['an answer missing its fields', { job_id: 'j1', upscaled_url: '/u.png' }],
    ["another tool's answer", { job_id: 'j1', library_item_id: null, energy_used: 2, model: 'm', video_url: '/v.mp4', prompt_used: 'p', duration_seconds: 5 }],
    ['no answer at all', undefined],
  ])('refuses %s with the tool failure text', async (_what, body) => {
    stubFetch((url) => (url === '/functions/v1/fal-upscaler' ? { status: 200, body } : { status: 200, body: { items: [] } }));
    const { Wrapper } = wrapper();
    const { result } = renderHook(() => useToolRun(upscaler), { wrapper: Wrapper });
    act(() => result.current.submit({ image_url: 'item', scale: 2 }));
    await waitFor(() => expect(result.current.phase).toBe('error'));
    expect(result.current.error).toBe('Failed to upscale image');
    expect(result.current.result).toBeNull();
    expect(result.current.refunded).toBe(false);
  });

  it('a run cancelled elsewhere shows the cancelled notice with the refund from its 422', async () => {
    stubFetch((url) =>
      url === '/functions/v1/fal-upscaler'
        ? { status: 422, body: { error: 'The run was cancelled.', code: 'tool_failed', job_id: 'j1', status: 'canceled', refunded: true, energy_refunded: 3 } }
        : { status: 200, body: { items: [] } },
    );
    const { Wrapper } = wrapper();
    const { result } = renderHook(() => useToolRun(upscaler), { wrapper: Wrapper });
    act(() => result.current.submit({ image_url: 'item', scale: 2 }));
    await waitFor(() => expect(result.current.phase).toBe('error'));
    expect(result.current.error).toBe('Cancelled, 3 ENERGY refunded');
    expect(result.current.cancelled).toBe(true);
  });

  it('a body its tool refuses is never sent', async () => {
    stubFetch(() => ({ status: 200, body: upscaled('j1', '/u.png') }));
    const { Wrapper } = wrapper();
    const { result } = renderHook(() => useToolRun(upscaler), { wrapper: Wrapper });
    act(() => result.current.submit({ image_url: 'item', scale: 99 }));
    await waitFor(() => expect(result.current.phase).toBe('error'));
    expect(result.current.error).toMatch(/Scale/);
    expect(toolPosts()).toHaveLength(0);
  });

  it('follows a 202 through GET /api/jobs/:id to the result', async () => {
    let polls = 0;
    stubFetch((url) => {
      if (url === '/functions/v1/fal-upscaler') return { status: 202, body: { job_id: 'j9', status: 'running' } };
      if (url === '/api/jobs/j9') {
        polls += 1;
        return {
          status: 200,
          body: { id: 'j9', tool: 'fal-upscaler', status: 'succeeded', progress_stage: 'Done', progress_fraction: 1 },
        };
      }
      if (url === '/api/jobs/j9/result') return { status: 200, body: upscaled('j9', '/late.png') };
      return { status: 200, body: { items: [] } };
    });
    const { Wrapper } = wrapper();
    const { result } = renderHook(() => useToolRun(upscaler), { wrapper: Wrapper });
    act(() => result.current.submit({ image_url: 'item', scale: 2 }));
    await waitFor(() => expect(result.current.phase).toBe('result'));
    expect(polls).toBeGreaterThan(0);
    expect(result.current.result?.file).toBe('/late.png');
    expect(result.current.jobId).toBe('j9');
    // The run asked for its job id at once and followed that job only: no guessing from the recent list.
    const [post] = toolPosts();
    expect(post.headers.get('Prefer')).toBe('respond-async');
    expect(calls.filter((c) => c.url.startsWith('/api/jobs?'))).toHaveLength(0);
    expect(calls.filter((c) => c.url.startsWith('/api/jobs/') && !c.url.startsWith('/api/jobs/j9'))).toHaveLength(0);
  });

  it('after a reload, reattaches to the remembered job and restores its form', async () => {
    sessionStorage.setItem(
      'pixelrush.toolRun.fal-upscaler',
      JSON.stringify({ v: 1, key: 'k-1', body: { image_url: 'item', scale: 4 }, form: { scale: 4 }, jobId: 'j5', startedAt: Date.now() - 5_000 }),
    );
    let state = 'running';
    stubFetch((url) => {
      if (url === '/api/jobs/j5') return { status: 200, body: { id: 'j5', tool: 'fal-upscaler', status: state, progress_stage: 'Upscaling tile 2 of 4', progress_fraction: 0.5 } };
      if (url === '/api/jobs/j5/result') return { status: 200, body: upscaled('j5', '/r.png') };
      return { status: 404, body: {} };
    });
    const { Wrapper } = wrapper();
    const { result } = renderHook(() => useToolRun<{ scale: number }>(upscaler), { wrapper: Wrapper });
    expect(result.current.phase).toBe('processing');
    expect(result.current.reattached).toBe(true);
    expect(result.current.form).toEqual({ scale: 4 });
    await waitFor(() => expect(result.current.progress.fraction).toBe(0.5));
    expect(result.current.progress.stage).toBe('Upscaling tile 2 of 4');
    expect(toolPosts()).toHaveLength(0); // no second submit
    state = 'succeeded';
    await waitFor(() => expect(result.current.phase).toBe('result'), { timeout: 8_000 });
    expect(result.current.result?.file).toBe('/r.png');
  });

  it('without a job id yet, a reload replays the same submit (same key)', async () => {
    sessionStorage.setItem(
      'pixelrush.toolRun.fal-upscaler',
      JSON.stringify({ v: 1, key: 'k-2', body: { image_url: 'item', scale: 2 }, jobId: null, startedAt: Date.now() }),
    );
    stubFetch((url) => (url === '/functions/v1/fal-upscaler' ? { status: 200, body: upscaled('j1', '/u.png') } : { status: 200, body: { items: [] } }));
    const { Wrapper } = wrapper();
    const { result } = renderHook(() => useToolRun(upscaler), { wrapper: Wrapper });
    await waitFor(() => expect(result.current.phase).toBe('result'));
    expect(keyOf(toolPosts()[0])).toBe('k-2');
  });

  it('cancel posts to /api/jobs/:id/cancel and shows the refund message', async () => {
    sessionStorage.setItem(
      'pixelrush.toolRun.fal-upscaler',
      JSON.stringify({ v: 1, key: 'k-3', body: { image_url: 'item', scale: 2 }, jobId: 'j7', startedAt: Date.now() }),
    );
    stubFetch((url, sent) => {
      if (url === '/api/jobs/j7/cancel' && sent.method === 'POST')
        return { status: 200, body: { id: 'j7', status: 'canceled', cost: 2, error: 'The run was cancelled. Your ENERGY has been refunded.' } };
      return { status: 200, body: { id: 'j7', tool: 'fal-upscaler', status: 'running', progress_stage: 'x', progress_fraction: 0.1 } };
    });
    const { Wrapper } = wrapper();
    const { result } = renderHook(() => useToolRun(upscaler), { wrapper: Wrapper });
    await act(() => result.current.cancel());
    expect(result.current.phase).toBe('error');
    expect(result.current.error).toBe('Cancelled, 2 ENERGY refunded');
    expect(result.current.cancelled).toBe(true);
    expect(sessionStorage.length).toBe(0);
  });
});

describe('CompareSlider', () => {
  it("shows 'Image Loading Error' with the failed URLs", () => {
    render(<CompareSlider beforeSrc="/before.png" afterSrc="/missing.png" />);
    const after = screen.getByAltText('After');
    fireEvent.error(after);
    expect(screen.getByText('Image Loading Error')).toBeTruthy();
    expect(screen.getByText('/missing.png')).toBeTruthy();
  });

  it('has a focusable slider handle and background toggles', () => {
    render(<CompareSlider beforeSrc="/a.png" afterSrc="/b.png" />);
    const handle = screen.getByRole('slider');
    expect(handle.getAttribute('tabindex')).toBe('0');
    const white = screen.getByRole('button', { name: 'White' });
    fireEvent.click(white);
    expect(white.getAttribute('aria-pressed')).toBe('true');
  });
});
