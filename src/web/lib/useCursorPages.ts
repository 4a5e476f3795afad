import { keepPreviousData, useInfiniteQuery, type QueryKey } from '@tanstack/react-query';

/**
 * A list the server hands out a page at a time (`{items, next_cursor}`, see page.schema):
 * `fetchPage` reads the page after `cursor` (undefined: the first); `items` holds the rows of
 * every page read so far. `keepPrevious` keeps the rows on screen while a new filter's first page loads.
 */
export function useCursorPages<P extends { items: unknown[]; next_cursor?: string | null }>({
  queryKey,
  fetchPage,
  staleTime,
  keepPrevious = false,
}: {
  queryKey: QueryKey;
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<P>;
  staleTime?: number;
  keepPrevious?: boolean;
}) {
  const query = useInfiniteQuery({
    queryKey,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam ?? undefined, signal),
    getNextPageParam: (last) => last.next_cursor ?? null,
    staleTime,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
  const items: P['items'][number][] = query.data?.pages.flatMap((p) => p.items) ?? [];
  return { query, items };
}
