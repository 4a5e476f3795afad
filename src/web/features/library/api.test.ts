import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { libraryKeys, linksFresh, refreshHeads, removeItem, upsertItems } from './api';
import { toolLabel } from '../tools/form/registry';
import { isPending, type LibraryItem, type LibraryPage } from '../../lib/library';
import { formatDuration } from '../../lib/format';
import { madeUpItemId, madeUpLibraryItem } from '../../../../test/helpers/library-item';

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
const link = (path: string, signedAt = 0) => `/api/files/${path}?signed=${signedAt}&sig=x`;

/** Item n as the API answers it, with fresh signed links; an even n is generated, an odd one uploaded. Higher n = older. */
function item(n: number, extra: Partial<LibraryItem> = {}): LibraryItem {
  const id = madeUpItemId(n);
  return madeUpLibraryItem(n, {
    is_generated: n % 2 === 0,
    url: link(`u/${id}.png`),
    thumbnail_url: link(`u/thumbs/${id}.webp`),
    download_url: link(`u/${id}.png`),
    url_expires_at: inSeconds(3600),
    ...extra,
  });
}

type ListData = InfiniteData<LibraryPage, string | null>;
const ids = (qc: QueryClient, group: 'all' | 'generated' | 'uploaded' = 'all') =>
  (qc.getQueryData<ListData>(libraryKeys.list('image', group))?.pages ?? []).flatMap((p) => p.items.map((i) => i.original_name));

function seed(qc: QueryClient, pages: LibraryItem[][], group: 'all' | 'generated' | 'uploaded' = 'all', lastCursor: string | null = 'more') {
  qc.setQueryData<ListData>(libraryKeys.list('image', group), {
    pages: pages.map((items, i) => ({ items, next_cursor: i === pages.length - 1 ? lastCursor : `c${i}` })),
    pageParams: pages.map((_, i) => (i === 0 ? null : `c${i - 1}`)),
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('library client', () => {
  it("names the tool an item came from by the registry, whatever name its row was stored under", () => {
    for (const stored of ['fal-image-restore', 'image-restore', 'restore']) expect(toolLabel(stored)).toBe('Image Restore');
    for (const stored of ['fal-image-editor', 'image-editor', 'editor']) expect(toolLabel(stored)).toBe('Image Editor');
    expect(toolLabel('upscaler')).toBe('Image Upscaler');
    expect(toolLabel('video-upscaler')).toBe('Video Upscaler');
    expect(toolLabel('image-to-video')).toBe('Image to Video');
    // Newer rows store the tool's title, shown as it is; no name at all is 'AI tool'.
    expect(toolLabel('AI Image Restore')).toBe('AI Image Restore');
    expect(toolLabel(null)).toBe('AI tool');
  });

  it('formats durations as m:ss', () => {
    expect(formatDuration(3)).toBe('0:03');
    expect(formatDuration(65.4)).toBe('1:05');
    expect(formatDuration(null)).toBe('0:00');
    expect(formatDuration(600)).toBe('10:00');
  });

  it('knows from url_expires_at whether the links still work, whatever the link looks like', () => {
    expect(linksFresh({ url_expires_at: inSeconds(3600) })).toBe(true);
    expect(linksFresh({ url_expires_at: inSeconds(30) })).toBe(false);
    expect(linksFresh({ url_expires_at: inSeconds(30) }, 0)).toBe(true);
    expect(linksFresh({ url_expires_at: undefined })).toBe(false);
  });

  it('calls a video pending by status, or by a pending/ path without a link', () => {
    expect(isPending(item(1, { status: 'pending' }))).toBe(true);
    expect(isPending(item(1, { storage_path: 'u/pending/j.mp4', url: undefined }))).toBe(true);
    expect(isPending(item(1, { storage_path: 'u/pending/j.mp4', status: 'failed', url: undefined }))).toBe(false);
    expect(isPending(item(1))).toBe(false);
  });

  it('puts an upload into the lists it belongs to, newest first, and replaces known items in place', () => {
    const qc = new QueryClient();
    seed(qc, [[item(2), item(3)], [item(4)]]);
    seed(qc, [[item(2), item(4)]], 'generated');
    seed(qc, [[item(3)]], 'uploaded');
    upsertItems(qc, [item(1)]); // odd = uploaded
    expect(ids(qc)).toEqual(['p1.png', 'p2.png', 'p3.png', 'p4.png']);
    expect(ids(qc, 'uploaded')).toEqual(['p1.png', 'p3.png']);
    expect(ids(qc, 'generated')).toEqual(['p2.png', 'p4.png']);
    upsertItems(qc, [item(3, { original_name: 'renamed.png' })]);
    expect(ids(qc)).toEqual(['p1.png', 'p2.png', 'renamed.png', 'p4.png']);
    // The next cursor survives, so scrolling on continues where it was.
    expect(qc.getQueryData<ListData>(libraryKeys.list('image', 'all'))!.pages.at(-1)!.next_cursor).toBe('more');
  });

  it('removes a deleted item from every list', () => {
    const qc = new QueryClient();
    seed(qc, [[item(2), item(3)], [item(4)]]);
    seed(qc, [[item(2), item(4)]], 'generated');
    removeItem(qc, item(4).id);
    expect(ids(qc)).toEqual(['p2.png', 'p3.png']);
    expect(ids(qc, 'generated')).toEqual(['p2.png']);
  });

  it('merges a fresh first page: new items in, deleted ones out, older pages kept, good links reused', async () => {
    const qc = new QueryClient();
    const old2 = item(2);
    seed(qc, [[old2, item(3), item(4)], [item(5), item(6)]]);
    // Server now: a new item 1, item 3 deleted elsewhere, item 2 signed anew; page of 3 ends at item 4.
    const fresh: LibraryPage = {
      items: [item(1), item(2, { thumbnail_url: link(`u/thumbs/${old2.id}.webp`, 1), url_expires_at: inSeconds(3601) }), item(4)],
      next_cursor: 'after-4',
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(fresh), { status: 200, headers: { 'content-type': 'application/json' } })),
    );
    await refreshHeads(qc, ['image']);
    expect(ids(qc)).toEqual(['p1.png', 'p2.png', 'p4.png', 'p5.png', 'p6.png']);
    const merged = qc.getQueryData<ListData>(libraryKeys.list('image', 'all'))!;
    // The thumbnail link already in the browser cache is kept (it is good for an hour).
    expect(merged.pages[0]!.items[1]!.thumbnail_url).toBe(old2.thumbnail_url);
    expect(merged.pages.at(-1)!.next_cursor).toBe('more');
  });

  it('a fresh page that is the whole list drops whatever it does not hold', async () => {
    const qc = new QueryClient();
    seed(qc, [[item(2), item(3)]], 'all', null);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ items: [item(3)], next_cursor: null }), { status: 200 })),
    );
    await refreshHeads(qc, ['image']);
    expect(ids(qc)).toEqual(['p3.png']);
  });

  it('a fresh page filtered down to nothing says nothing about older items', async () => {
    const qc = new QueryClient();
    seed(qc, [[item(3), item(5)]], 'uploaded');
    // The server ignored the group hint: only generated items came back, with more to come.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ items: [item(0), item(2)], next_cursor: 'x' }), { status: 200 })),
    );
    await refreshHeads(qc, ['image']);
    expect(ids(qc, 'uploaded')).toEqual(['p3.png', 'p5.png']);
  });
});
