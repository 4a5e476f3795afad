import type { ComponentType, ReactNode } from 'react';
import { describeError } from '../lib/api';
import { Button } from './Button';
import { ErrorBox } from './ErrorBox';
import { Skeleton } from './Skeleton';

/**
 * A list read from the server, in the state it is in: placeholder bars while it loads, the error
 * with a retry when it failed, `empty` when it has no rows, else the rows (`children`).
 * `error` is what failed (null when nothing did); `inset` pads the placeholders and the error for
 * a list drawn edge to edge inside a panel.
 */
export function QueryStates({
  pending,
  error,
  onRetry,
  failed,
  count,
  empty,
  bar,
  bars = 3,
  inset = false,
  children,
}: {
  pending: boolean;
  error: unknown;
  onRetry: () => void;
  /** What the error says before the reason: 'Could not load jobs'. */
  failed: string;
  count: number;
  empty: ReactNode;
  /** Height class of one placeholder bar ('h-16'). */
  bar: string;
  bars?: number;
  inset?: boolean;
  children: ReactNode;
}) {
  if (pending) {
    return (
      <div className={inset ? 'space-y-2 p-4' : 'space-y-2'}>
        {Array.from({ length: bars }, (_, i) => (
          <Skeleton key={i} className={bar} />
        ))}
      </div>
    );
  }
  if (error) {
    const box = (
      <ErrorBox onRetry={onRetry}>
        {failed}: {describeError(error)}
      </ErrorBox>
    );
    return inset ? <div className="p-4">{box}</div> : box;
  }
  return count === 0 ? empty : children;
}

/** 'Load older' under a list read page by page, and the error when an older page failed. */
export function LoadOlder({
  query,
  failed,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; isFetchNextPageError: boolean; error: unknown; fetchNextPage: () => unknown };
  /** What the error says before the reason ('Could not load older jobs'); without it, none is shown. */
  failed?: string;
}) {
  return (
    <>
      {query.hasNextPage && (
        <div className="text-center">
          <Button variant="secondary" size="sm" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            Load older
          </Button>
        </div>
      )}
      {failed && query.isFetchNextPageError && (
        <ErrorBox>
          {failed}: {describeError(query.error)}
        </ErrorBox>
      )}
    </>
  );
}

interface PagedQuery {
  isPending: boolean;
  error: unknown;
  refetch: () => unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}

/**
 * A list read page by page (`useCursorPages`), drawn as a bordered column of rows: the states of
 * QueryStates (its error only while no row shows: a failed older page is LoadOlder's), a note with
 * an icon when there are no rows, else each row (`row`, an `li`) and 'Load older'.
 */
export function PagedList<T>({
  pages: { query, items },
  row,
  label,
  failed,
  olderFailed,
  bar,
  empty,
}: {
  pages: { query: PagedQuery; items: T[] };
  row: (item: T) => ReactNode;
  /** The list's accessible name. */
  label: string;
  failed: string;
  /** What a failed older page says before the reason; without it, LoadOlder shows none. */
  olderFailed?: string;
  bar: string;
  empty: { icon: ComponentType<{ className?: string }>; text: string; action?: ReactNode };
}) {
  const EmptyIcon = empty.icon;
  return (
    <QueryStates
      pending={query.isPending}
      error={items.length === 0 ? query.error : null}
      onRetry={() => void query.refetch()}
      failed={failed}
      count={items.length}
      bar={bar}
      empty={
        <div className="rounded-xl border border-dashed border-zinc-800 px-4 py-8 text-center">
          <EmptyIcon className="mx-auto size-8 text-zinc-700" aria-hidden="true" />
          <p className="mt-2 text-sm text-zinc-400">{empty.text}</p>
          {empty.action}
        </div>
      }
    >
      <>
        <ul className="divide-y divide-zinc-800/80 overflow-hidden rounded-xl border border-zinc-800" aria-label={label}>
          {items.map(row)}
        </ul>
        <LoadOlder query={query} failed={olderFailed} />
      </>
    </QueryStates>
  );
}
