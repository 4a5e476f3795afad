// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DropZone } from './DropZone';

/**
 * The drop zone's size limit is the operator's, told by GET /api/library/counts: a server set to
 * half a megabyte says so under the zone and refuses a larger picked file before a byte is sent.
 */
const MB = 1024 * 1024;
const posted: string[] = [];

beforeEach(() => {
  posted.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'));
      const path = new URL(request.url).pathname;
      if (request.method !== 'GET') posted.push(path);
      if (path === '/api/library/counts') {
        const group = { generated: 0, uploaded: 0, total: 0 };
        const counts = { images: group, videos: group, storage: { used_bytes: 0, quota_bytes: null }, upload_max_bytes: { image: 0.5 * MB, video: 2 * MB } };
        return new Response(JSON.stringify(counts), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }
      return new Response('{"error":"not here"}', { status: 404, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  // Uploads go by XMLHttpRequest (for progress); none may start here.
  vi.stubGlobal(
    'XMLHttpRequest',
    class {
      open(_method: string, url: string) {
        posted.push(url);
      }
    },
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DropZone', () => {
  it("says the server's upload limit and refuses a larger file before sending it", async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <DropZone kind="image" />
      </QueryClientProvider>,
    );
    await screen.findByText(/up to 0\.5 MB/);
    const input = screen.getByLabelText('Upload image file');
    const big = new File([new Uint8Array(0.5 * MB + 1)], 'big.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [big] } });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Failed to upload image: File is too large (max 0.5 MB)'));
    expect(posted).toEqual([]);
  });
});
