import type { ReactNode } from 'react';
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
