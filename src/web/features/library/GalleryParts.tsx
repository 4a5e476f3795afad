import { useCallback, type ComponentType, type ReactNode } from 'react';
import { AlertTriangle, Loader2, RefreshCw } from 'lucide-react';
import clsx from 'clsx';
import { Button } from '../../components/Button';
import { describeError } from '../../lib/api';
import { PAGE_SIZE, type useLibraryList } from './api';
import { useLoadMoreSentinel } from './VirtualGrid';

/** Title block of a gallery view. */
export function GalleryHeader({
  id,
  title,
  subtitle,
  icon: Icon,
  actions,
}: {
  id: string;
  title: string;
  subtitle?: ReactNode;
  icon: ComponentType<{ className?: string }>;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      <div className="flex min-w-0 items-start gap-4">
        <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-gradient-to-br from-violet-500/20 to-fuchsia-500/20 text-fuchsia-300 ring-1 ring-fuchsia-500/30">
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <h2 id={id} className="text-2xl font-bold tracking-tight text-white">
            {title}
          </h2>
          {subtitle && <p className="mt-1 text-sm text-zinc-400">{subtitle}</p>}
        </div>
      </div>
      {actions}
    </div>
  );
}

export function EmptyState({
  icon: Icon,
  title,
  children,
}: {
  icon: ComponentType<{ className?: string }>;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center rounded-2xl border border-dashed border-zinc-800 bg-zinc-950/30 px-6 py-14 text-center">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-zinc-900 text-zinc-400 ring-1 ring-zinc-800">
        <Icon className="size-7" aria-hidden="true" />
      </span>
      <h3 className="mt-4 text-lg font-semibold text-zinc-100">{title}</h3>
      {children}
    </div>
  );
}

export function LoadError({ error, onRetry, what }: { error: unknown; onRetry: () => void; what: string }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-2xl border border-red-500/20 bg-red-500/5 px-6 py-10 text-center">
      <AlertTriangle className="size-8 text-amber-400" aria-hidden="true" />
      <p className="text-sm text-zinc-300">
        Could not load your {what}: {describeError(error)}
      </p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        <RefreshCw className="size-4" aria-hidden="true" /> Try Again
      </Button>
    </div>
  );
}

/**
 * Under a library list: the sentinel that reads the next page as it nears the screen, a spinner
 * while it loads, a button for those who prefer one, and the count once every page is shown.
 */
export function ListFooter({ list }: { list: ReturnType<typeof useLibraryList> }) {
  const { hasNextPage, isFetchingNextPage: loading, isFetchNextPageError: failed, fetchNextPage } = list;
  const hasMore = !!hasNextPage;
  const onLoadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const sentinel = useLoadMoreSentinel(hasMore && !loading && !failed, onLoadMore);
  const shown = list.items.length;
  // An end marker only helps after scrolling through more than one page.
  const paged = (list.data?.pageParams.length ?? 0) > 1 || shown > PAGE_SIZE;
  return (
    <div
      ref={sentinel}
      className={clsx('flex flex-col items-center justify-center gap-2 text-sm text-zinc-400', (hasMore || loading || paged) && 'min-h-16 py-4')}
    >
      {loading ? (
        <span className="flex items-center gap-2" role="status">
          <Loader2 className="size-4 animate-spin text-fuchsia-400" aria-hidden="true" /> Loading more...
        </span>
      ) : hasMore ? (
        <>
          {failed && <span className="text-red-300">Loading more failed.</span>}
          <Button variant="secondary" size="sm" onClick={onLoadMore}>
            {failed ? 'Try Again' : 'Load more'}
          </Button>
        </>
      ) : paged ? (
        <span className="text-xs text-zinc-400">All {shown.toLocaleString()} shown.</span>
      ) : null}
    </div>
  );
}

export function GridSkeleton({ count, className, tileClass }: { count: number; className: string; tileClass: string }) {
  return (
    <div className={className} aria-busy="true" aria-label="Loading">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className={`animate-pulse rounded-xl bg-zinc-800/60 ${tileClass}`} />
      ))}
    </div>
  );
}

function formatBytes(n: number): string {
  if (n < 1024 * 1024) return `${Math.max(0, Math.round(n / 1024))} KB`;
  if (n < 1024 ** 3) return `${+(n / 1024 ** 2).toFixed(1)} MB`;
  return `${+(n / 1024 ** 3).toFixed(2)} GB`;
}

/** Library storage used against the account's quota (both galleries share it). */
export function StorageUsage({ storage }: { storage?: { used_bytes: number; quota_bytes: number | null } }) {
  if (!storage?.quota_bytes) return null;
  const { used_bytes: used, quota_bytes: quota } = storage;
  const pct = Math.min(100, Math.round((used / quota) * 100));
  const label = `${formatBytes(used)} of ${formatBytes(quota)} used`;
  const full = used >= quota;
  return (
    <div className="w-full max-w-[16rem] text-xs text-zinc-400 sm:w-56">
      <div className="mb-1 flex justify-between gap-2">
        <span>Storage</span>
        <span className={clsx(pct >= 90 ? 'text-amber-300' : 'text-zinc-300')}>{label}</span>
      </div>
      <div
        role="meter"
        aria-label="Library storage"
        aria-valuemin={0}
        aria-valuemax={quota}
        aria-valuenow={Math.min(used, quota)}
        aria-valuetext={label}
        className="h-1.5 overflow-hidden rounded-full bg-zinc-800"
      >
        <div className={clsx('h-full rounded-full', pct >= 90 ? 'bg-amber-400' : 'bg-fuchsia-500')} style={{ width: `${pct}%` }} />
      </div>
      <p className={clsx('mt-1', full ? 'text-amber-300' : 'text-zinc-500')}>
        {full
          ? 'Full: uploads and new tool runs are refused until you delete some items.'
          : 'Tool results are always kept; once the library is full, new runs are refused (and cost nothing) until you make room.'}
      </p>
    </div>
  );
}
