import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, Film, ImageIcon, Link2, Loader2 } from 'lucide-react';
import clsx from 'clsx';
import { toast } from '../../lib/toast';
import type { ShareLink } from '../../../shared/shares.schema.js';
import { call, client, describeError, errorMessage } from '../../lib/api';
import { Button } from '../../components/Button';
import { EmptyState } from './GalleryParts';
import { fetchLibraryItem, libraryKeys } from './api';
import { formatDate } from '../../lib/format';
import { useCursorPages } from '../../lib/useCursorPages';
import { Thumb } from './Thumb';

/** Every query about share links starts with this key, so a change anywhere refreshes them all. */
export const sharesKeys = { all: ['shares'] as const, mine: ['shares', 'mine'] as const };

const PAGE = 50;

/** The user's share links, newest first, a page at a time (GET /api/shares). */
export function useMyShares() {
  return useCursorPages({
    queryKey: sharesKeys.mine,
    fetchPage: (cursor, signal) => call(client.GET('/api/shares', { params: { query: { limit: PAGE, cursor } }, signal })),
    staleTime: 10_000,
  });
}

const STATUS_LABEL: Record<ShareLink['status'], string> = { active: 'Active', expired: 'Expired', revoked: 'Turned off' };

/**
 * My Images' 'Shared links' tab (decision 031): every link of mine with its picture, before/after
 * or single, views, expiry and creation date; each live one copied or turned off at once.
 */
export function SharedLinks() {
  const qc = useQueryClient();
  const { query, items } = useMyShares();
  const revoke = useMutation({
    mutationFn: (id: string) => call(client.DELETE('/api/shares/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      toast.success('Link turned off');
      void qc.invalidateQueries({ queryKey: sharesKeys.all });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const copy = (url: string) =>
    void navigator.clipboard?.writeText(url).then(
      () => toast.success('Link copied'),
      () => toast.error('Could not copy: select the link and copy it'),
    );

  if (query.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-zinc-400" role="status">
        <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Loading your links...
      </p>
    );
  }
  if (query.isError) {
    return (
      <div role="alert" className="rounded-xl border border-red-500/40 bg-red-500/10 p-4 text-sm text-red-200">
        Could not load your links: {describeError(query.error)}{' '}
        <button type="button" className="underline" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (!items.length) {
    return (
      <EmptyState icon={Link2} title="No Shared Links Yet">
        <p className="mt-1 max-w-sm text-sm text-zinc-400">Open a picture or video and choose Share to make a public link. Your links, their views and expiries are listed here.</p>
      </EmptyState>
    );
  }
  return (
    <div className="space-y-3">
      <ul aria-label="Shared links" className="space-y-3">
        {items.map((l) => (
          <SharedLinkRow key={l.id} link={l} onCopy={copy} onTurnOff={(id) => revoke.mutate(id)} turningOff={revoke.isPending} />
        ))}
      </ul>
      {query.hasNextPage && (
        <div className="text-center">
          <Button variant="secondary" size="sm" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            Load older links
          </Button>
        </div>
      )}
    </div>
  );
}

/**
 * One link as its owner knows it: the picture's thumbnail and file name (the public page shows only a
 * neutral title, which stands in until the item answers), before/after or single, views, expiry, created.
 */
function SharedLinkRow({ link: l, onCopy, onTurnOff, turningOff }: { link: ShareLink; onCopy: (url: string) => void; onTurnOff: (id: string) => void; turningOff: boolean }) {
  const item = useQuery({
    queryKey: [...libraryKeys.root, 'item', l.item_id],
    queryFn: ({ signal }) => fetchLibraryItem(l.item_id, signal),
    staleTime: 60_000,
    retry: false,
  });
  const name = item.data?.original_name ?? l.title;
  const Icon = l.kind === 'video' ? Film : ImageIcon;
  const live = l.status === 'active';
  return (
    <li className={clsx('rounded-xl border border-zinc-800 bg-zinc-950/40 p-3 sm:p-4', !live && 'opacity-75')} data-testid="my-share-link">
      <div className="flex min-w-0 items-start justify-between gap-3">
        <div className="flex min-w-0 flex-1 items-center gap-3">
          {item.data ? (
            <Thumb item={item.data} className="size-12 shrink-0 rounded-lg object-cover" />
          ) : (
            <span className="flex size-12 shrink-0 items-center justify-center rounded-lg bg-zinc-800/80 text-zinc-500">
              <Icon className="size-5" aria-hidden="true" />
            </span>
          )}
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-white" title={name}>
              {name}
            </p>
            <p className="text-xs text-zinc-400">
              {l.before_item_id ? 'Before/after' : l.kind === 'video' ? 'Single video' : 'Single picture'}
              {l.tool ? ` · ${l.tool}` : ''}
            </p>
          </div>
        </div>
        <span className={clsx('badge shrink-0', live ? 'bg-emerald-500/15 text-emerald-200 ring-1 ring-emerald-500/40' : 'bg-zinc-800 text-zinc-300 ring-1 ring-zinc-700')}>
          {STATUS_LABEL[l.status]}
        </span>
      </div>
      <dl className="mt-3 grid grid-cols-1 gap-x-3 gap-y-1 text-xs text-zinc-400 min-[420px]:grid-cols-3">
        <div>
          <dt className="inline">Views: </dt>
          <dd className="inline font-medium text-zinc-200 tabular-nums" data-testid="share-views">
            {l.views.toLocaleString()}
          </dd>
        </div>
        <div>
          <dt className="inline">{l.status === 'expired' ? 'Expired: ' : 'Expires: '}</dt>
          <dd className="inline text-zinc-200">{l.expires_at ? formatDate(l.expires_at) : 'Never expires'}</dd>
        </div>
        <div>
          <dt className="inline">Created: </dt>
          <dd className="inline text-zinc-200">{formatDate(l.created_at)}</dd>
        </div>
      </dl>
      {live && (
        <div className="mt-3 flex min-w-0 flex-col gap-2 sm:flex-row sm:items-center">
          <input readOnly aria-label={`Share link of ${name}`} value={l.url} className="input min-w-0 flex-1 py-1.5 text-xs" onFocus={(e) => e.target.select()} />
          <span className="flex shrink-0 gap-2">
            <Button variant="secondary" size="sm" onClick={() => onCopy(l.url)} aria-label={`Copy link of ${name}`}>
              <Copy className="size-3.5" aria-hidden="true" /> Copy link
            </Button>
            <Button variant="ghost" size="sm" className="text-red-300" onClick={() => onTurnOff(l.id)} disabled={turningOff} aria-label={`Turn off link of ${name}`}>
              Turn off
            </Button>
          </span>
        </div>
      )}
    </li>
  );
}
