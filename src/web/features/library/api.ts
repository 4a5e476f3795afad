import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { LibraryGroup, LibraryItem, LibraryPage, MediaKind } from '../../lib/library';
import { call, client } from '../../lib/api';
import { useServerEvent, useServerReconnect } from '../../lib/events';

/**
 * The media library as the web app sees it (GET /api/library and friends;
 * fields: DESIGN.md "library items"; the types are in lib/library).
 *
 * Lists are cursor pages cached by TanStack Query and never refetched whole
 * (a user deep in 20,000 items would re-download hundreds of pages): after a
 * change we fetch only the newest page and merge it in, patch single items,
 * or drop deleted ones from the cache.
 */

/** 12 rows of the 4-column image grid (the server's default page). */
export const PAGE_SIZE = 48;

export const libraryKeys = {
  root: ['library'] as const,
  lists: ['library', 'list'] as const,
  list: (kind: MediaKind, group: LibraryGroup) => ['library', 'list', kind, group] as const,
  counts: ['library', 'counts'] as const,
};

type ListData = InfiniteData<LibraryPage, string | null>;

/** True while the item's signed links work for at least `marginMs` more (the server says until when). */
export function linksFresh(item: Pick<LibraryItem, 'url_expires_at'>, marginMs = 60_000): boolean {
  const at = item.url_expires_at ? Date.parse(item.url_expires_at) : NaN;
  return Number.isFinite(at) && at - Date.now() > marginMs;
}

/**
 * Every answer signs its links anew, and a new query string is a new cache
 * entry for the browser: keep the links we already have while they are good
 * for a while, so a refresh does not re-download every thumbnail.
 */
function keepLinks(prev: LibraryItem, next: LibraryItem): LibraryItem {
  if (prev.storage_path !== next.storage_path || prev.status !== next.status || !linksFresh(prev, 10 * 60_000)) return next;
  // A link only the new answer has lives longer than the kept ones: the earlier expiry holds for all.
  const pick = (a: string | undefined, b: string | undefined) => (a && b ? a : b);
  return {
    ...next,
    url: pick(prev.url, next.url),
    thumbnail_url: pick(prev.thumbnail_url, next.thumbnail_url),
    download_url: pick(prev.download_url, next.download_url),
    url_expires_at: prev.url_expires_at,
  };
}

// ------------------------------------------------------------- requests


export function matchesList(item: LibraryItem, kind: MediaKind, group: LibraryGroup): boolean {
  if (item.kind !== kind) return false;
  if (group === 'generated') return item.is_generated;
  if (group === 'uploaded') return !item.is_generated;
  return true;
}

export async function fetchLibraryPage(
  kind: MediaKind,
  group: LibraryGroup,
  cursor: string | null,
  signal?: AbortSignal,
  limit = PAGE_SIZE,
): Promise<LibraryPage> {
  // The client filters again (matchesList), so the group is only a hint to the server.
  const query = { kind, limit, generated: group === 'all' ? undefined : group === 'generated' ? ('true' as const) : ('false' as const), cursor: cursor ?? undefined };
  const page = await call(client.GET('/api/library', { params: { query }, signal }));
  return { ...page, items: page.items.filter((i) => matchesList(i, kind, group)) };
}

export const fetchLibraryItem = (id: string, signal?: AbortSignal) =>
  call(client.GET('/api/library/{id}', { params: { path: { id } }, signal }));

/** GET /api/library/:id/versions: the picture's chain, oldest first (each item names its source). */
export const fetchVersions = (id: string, signal?: AbortSignal) =>
  call(client.GET('/api/library/{id}/versions', { params: { path: { id } }, signal })).then((r) => r.items);

/** How many versions were made from an item, directly or not (they stay when it is deleted). */
export function madeFrom(versions: LibraryItem[], id: string): number {
  const below = new Set([id]);
  for (const v of versions) if (v.source_item_id && below.has(v.source_item_id)) below.add(v.id);
  return below.size - 1;
}

export const deleteLibraryItem = (id: string) => call(client.DELETE('/api/library/{id}', { params: { path: { id } } }));

export const retryLibraryItem = (id: string) => call(client.POST('/api/library/{id}/retry', { params: { path: { id } } }));

/** A link that always works: the server redirects to a fresh signed link with the original name. */
export const downloadRoute = (id: string) => `/api/library/${encodeURIComponent(id)}/download`;

/** The item's download link while it is good, else the redirecting route. */
export const downloadHref = (item: LibraryItem) =>
  item.download_url && linksFresh(item, 30_000) ? item.download_url : downloadRoute(item.id);

// --------------------------------------------------------- cache updates

const newestFirst = (a: LibraryItem, b: LibraryItem) =>
  a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

function listKeyParts(key: readonly unknown[]): { kind: MediaKind; group: LibraryGroup } | null {
  const [, , kind, group] = key;
  if ((kind === 'image' || kind === 'video') && (group === 'all' || group === 'generated' || group === 'uploaded')) {
    return { kind, group };
  }
  return null;
}

/** Collapses the pages into one (the next cursor is all a cursor list needs to go on). */
function withItems(data: ListData, items: LibraryItem[]): ListData {
  const last = data.pages[data.pages.length - 1];
  return { pages: [{ items, next_cursor: last?.next_cursor ?? null }], pageParams: [data.pageParams[0] ?? null] };
}

const flatten = (data: ListData) => data.pages.flatMap((p) => p.items);

/** Puts items into every cached list they belong to: replaced where present, else inserted in order. */
export function upsertItems(qc: QueryClient, items: LibraryItem[]): void {
  if (!items.length) return;
  for (const [key, data] of qc.getQueriesData<ListData>({ queryKey: libraryKeys.lists })) {
    const parts = listKeyParts(key);
    if (!data || !parts) continue;
    const mine = items.filter((i) => matchesList(i, parts.kind, parts.group));
    const byId = new Map(items.map((i) => [i.id, i]));
    let changed = false;
    const current = flatten(data).flatMap((old) => {
      const next = byId.get(old.id);
      if (!next) return [old];
      changed = true;
      byId.delete(old.id);
      // An item can leave a list (it cannot today, but the filter says where it belongs).
      return matchesList(next, parts.kind, parts.group) ? [keepLinks(old, next)] : [];
    });
    const added = mine.filter((i) => byId.has(i.id));
    if (!changed && !added.length) continue;
    const merged = added.length ? [...current, ...added].sort(newestFirst) : current;
    qc.setQueryData<ListData>(key, withItems(data, merged));
  }
}

export function removeItem(qc: QueryClient, id: string): void {
  for (const [key, data] of qc.getQueriesData<ListData>({ queryKey: libraryKeys.lists })) {
    if (!data || !data.pages.some((p) => p.items.some((i) => i.id === id))) continue;
    qc.setQueryData<ListData>(key, {
      ...data,
      pages: data.pages.map((p) => ({ ...p, items: p.items.filter((i) => i.id !== id) })),
    });
  }
}

/**
 * Merges a fresh first page into a cached list: new items go in, changed
 * ones are replaced (keeping good links), and items newer than the page's
 * end that are gone from it were deleted elsewhere.
 */
function mergeHead(data: ListData, fresh: LibraryPage): ListData {
  const freshById = new Map(fresh.items.map((i) => [i.id, i]));
  // How far back the fresh page reaches: everything newer than its end is in it, or was deleted.
  // (A page the client filtered down to nothing says nothing about what it skipped.)
  const boundary = fresh.next_cursor ? (fresh.items[fresh.items.length - 1]?.created_at ?? '\uffff') : undefined;
  const seen = new Set<string>();
  const kept: LibraryItem[] = [];
  for (const old of flatten(data)) {
    if (seen.has(old.id)) continue;
    seen.add(old.id);
    const next = freshById.get(old.id);
    if (next) {
      kept.push(keepLinks(old, next));
      freshById.delete(old.id);
    } else if (boundary !== undefined && old.created_at <= boundary) {
      kept.push(old);
    }
    // Else it is newer than the fresh page's end (or the page is the whole list) and absent: deleted elsewhere.
  }
  const added = [...freshById.values()];
  return withItems(data, added.length ? [...kept, ...added].sort(newestFirst) : kept);
}

/** Fetches the newest page of each cached list of `kinds` and merges it in. */
export async function refreshHeads(qc: QueryClient, kinds: MediaKind[] = ['image', 'video']): Promise<void> {
  const lists = qc.getQueriesData<ListData>({ queryKey: libraryKeys.lists });
  await Promise.all(
    lists.map(async ([key, data]) => {
      const parts = listKeyParts(key);
      if (!data || !parts || !kinds.includes(parts.kind)) return;
      try {
        const fresh = await fetchLibraryPage(parts.kind, parts.group, null);
        const current = qc.getQueryData<ListData>(key);
        if (current) qc.setQueryData<ListData>(key, mergeHead(current, fresh));
      } catch {
        /* the next event or visit tries again */
      }
    }),
  );
}

/** Re-reads single items (fresh links, a pending video that finished) into every list. */
export async function refreshItems(qc: QueryClient, ids: string[]): Promise<void> {
  const got = await Promise.all(
    ids.map((id) =>
      fetchLibraryItem(id).catch((err: unknown) => {
        if ((err as { status?: number })?.status === 404) removeItem(qc, id);
        return null;
      }),
    ),
  );
  upsertItems(qc, got.filter((i): i is LibraryItem => !!i));
}

/** Finds a cached item (any list) by the tool job that made it. */
function itemIdsForJob(qc: QueryClient, jobId: string): string[] {
  const ids = new Set<string>();
  for (const [, data] of qc.getQueriesData<ListData>({ queryKey: libraryKeys.lists })) {
    for (const p of data?.pages ?? []) for (const i of p.items) if (i.job_id === jobId) ids.add(i.id);
  }
  return [...ids];
}

// ---------------------------------------------------------------- hooks

export function useLibraryCounts() {
  return useQuery({
    queryKey: libraryKeys.counts,
    queryFn: ({ signal }) => call(client.GET('/api/library/counts', { signal })),
    staleTime: 15_000,
  });
}

/** The largest file the server takes for one upload of this kind (the operator's setting); undefined until known. */
export function useUploadLimit(kind: MediaKind): number | undefined {
  return useLibraryCounts().data?.upload_max_bytes[kind];
}

/** Older than this, a cached list's links may be expiring: start it over on the next visit. */
const LIST_MAX_AGE_MS = 30 * 60_000;

/**
 * One gallery list: cursor pages (infinite), de-duplicated, newest first.
 * On mount a cached list is brought up to date with its newest page only.
 */
export function useLibraryList(kind: MediaKind, group: LibraryGroup = 'all', opts: { pageSize?: number; enabled?: boolean } = {}) {
  const qc = useQueryClient();
  const key = libraryKeys.list(kind, group);
  const pageSize = opts.pageSize ?? PAGE_SIZE;

  // A cached list kept too long would hold dead links: forget it before the query mounts.
  const checked = useRef<string | null>(null);
  const keyStr = key.join('/');
  if (checked.current !== keyStr) {
    checked.current = keyStr;
    const state = qc.getQueryState(key);
    if (state?.data && Date.now() - state.dataUpdatedAt > LIST_MAX_AGE_MS) qc.removeQueries({ queryKey: key, exact: true });
  }

  const query = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam, signal }) => fetchLibraryPage(kind, group, pageParam, signal, pageSize),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    staleTime: Infinity,
    // Even when someone invalidated ['library'], a returning list is not refetched page by page:
    // the effect below merges in the newest page instead.
    refetchOnMount: false,
    enabled: opts.enabled ?? true,
  });

  // Returning to a list that was cached: only the newest page is fetched.
  const hadData = useRef(query.data !== undefined);
  useEffect(() => {
    if (hadData.current) void refreshHeads(qc, [kind]);
  }, [qc, kind]);

  const items = useMemo(() => {
    if (!query.data) return [] as LibraryItem[];
    const seen = new Set<string>();
    const out: LibraryItem[] = [];
    for (const p of query.data.pages) {
      for (const i of p.items) {
        if (seen.has(i.id)) continue;
        seen.add(i.id);
        out.push(i);
      }
    }
    return out;
  }, [query.data]);

  return { ...query, items };
}

/**
 * Keeps cached lists in step with the server: a tool job that starts or
 * ends (SSE 'job') brings in the newest page and re-reads the job's item,
 * so a pending video turns playable without a reload. Progress fractions
 * of running jobs are returned for 'Generating... 40%'.
 */
export function useLibraryLiveUpdates(kinds: MediaKind[]): Record<string, number> {
  const qc = useQueryClient();
  const [progress, setProgress] = useState<Record<string, number>>({});
  const seenJobs = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const kindsKey = kinds.join(',');

  const refresh = useCallback(() => {
    clearTimeout(timer.current);
    // Several events in a burst: one refresh.
    timer.current = setTimeout(() => {
      void refreshHeads(qc, kindsKey.split(',') as MediaKind[]);
      void qc.invalidateQueries({ queryKey: libraryKeys.counts });
    }, 250);
  }, [qc, kindsKey]);

  useEffect(() => () => clearTimeout(timer.current), []);

  useServerEvent('job', (ev) => {
    const id = ev.id;
    if (ev.status === 'queued' || ev.status === 'running') {
      if (ev.status === 'running') {
        const f = ev.progress_fraction;
        setProgress((p) => (p[id] === f ? p : { ...p, [id]: f }));
      }
      // A run that starts may show a pending video: look once per run, not on every progress tick.
      if (ev.status === 'running' && !seenJobs.current.has(id)) {
        seenJobs.current.add(id);
        refresh();
      }
      return;
    }
    seenJobs.current.delete(id);
    setProgress((p) => {
      if (!(id in p)) return p;
      const { [id]: _gone, ...rest } = p;
      return rest;
    });
    const ids = itemIdsForJob(qc, id);
    if (ids.length) void refreshItems(qc, ids);
    refresh();
  });
  useServerReconnect(refresh);
  return progress;
}
