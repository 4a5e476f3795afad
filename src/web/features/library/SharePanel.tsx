import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, Link2, Share2 } from 'lucide-react';
import { toast } from '../../lib/toast';
import { call, client, errorMessage } from '../../lib/api';
import { Button } from '../../components/Button';
import type { ShareExpiry } from '../../../shared/shares.schema.js';
import type { LibraryItem } from '../../lib/library';
import { formatDate } from '../../lib/format';
import { sharesKeys } from './SharedLinks';

const EXPIRY_OPTIONS: Array<{ value: ShareExpiry; label: string }> = [
  { value: '1d', label: '1 day' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: 'never', label: 'Never' },
];

const sharesKey = (itemId: string) => [...sharesKeys.all, 'item', itemId] as const;

/**
 * 'Share' for a library item (decision 031): a public link with an expiry, optionally the result
 * beside the picture it was made from, and this item's links with their views, each turned off at once.
 */
export function SharePanel({ item }: { item: LibraryItem }) {
  const id = useId();
  const qc = useQueryClient();
  const [expiry, setExpiry] = useState<ShareExpiry>('7d');
  const [pair, setPair] = useState(!!item.source_item_id);
  const [indexable, setIndexable] = useState(false);
  const links = useQuery({
    queryKey: sharesKey(item.id),
    queryFn: ({ signal }) => call(client.GET('/api/shares', { params: { query: { item: item.id } }, signal })).then((r) => r.items),
  });
  const create = useMutation({
    mutationFn: () =>
      call(client.POST('/api/shares', { body: { item_id: item.id, pair: pair && !!item.source_item_id, expires_in: expiry, indexable } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: sharesKeys.all }),
    onError: (err) => toast.error(errorMessage(err)),
  });
  const revoke = useMutation({
    mutationFn: (linkId: string) => call(client.DELETE('/api/shares/{id}', { params: { path: { id: linkId } } })),
    onSuccess: () => {
      toast.success('Link turned off');
      void qc.invalidateQueries({ queryKey: sharesKeys.all });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const copy = (url: string) =>
    navigator.clipboard?.writeText(url).then(
      () => toast.success('Link copied'),
      () => toast.error('Could not copy: select the link and copy it'),
    );
  const active = (links.data ?? []).filter((l) => l.status === 'active');

  return (
    <section aria-labelledby={`${id}-h`} className="space-y-3 rounded-xl border border-zinc-800 bg-zinc-950/50 p-3" data-testid="share-panel">
      <h3 id={`${id}-h`} className="flex items-center gap-1.5 text-xs font-semibold tracking-wider text-fuchsia-300/90 uppercase">
        <Share2 className="size-3.5" aria-hidden="true" /> Share
      </h3>
      <label className="block text-xs text-zinc-400">
        Link expires after
        <select className="input mt-1 py-1.5 text-sm" value={expiry} onChange={(e) => setExpiry(e.target.value as ShareExpiry)}>
          {EXPIRY_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      {item.source_item_id && item.kind === 'image' && (
        <label className="flex items-center gap-2 text-sm text-zinc-300">
          <input type="checkbox" className="size-4 accent-fuchsia-500" checked={pair} onChange={(e) => setPair(e.target.checked)} />
          Show before and after
        </label>
      )}
      <label className="flex items-center gap-2 text-sm text-zinc-300">
        <input type="checkbox" className="size-4 accent-fuchsia-500" checked={indexable} onChange={(e) => setIndexable(e.target.checked)} />
        Let search engines index this page
      </label>
      <Button size="sm" className="w-full" loading={create.isPending} onClick={() => create.mutate()}>
        {!create.isPending && <Link2 className="size-4" aria-hidden="true" />} Create link
      </Button>
      {active.length > 0 && (
        <ul className="space-y-2" aria-label={item.kind === 'video' ? 'Links to this video' : 'Links to this picture'}>
          {active.map((l) => (
            <li key={l.id} className="space-y-1.5 rounded-lg border border-zinc-800 p-2 text-xs text-zinc-400" data-testid="share-link">
              <input readOnly aria-label="Share link" value={l.url} className="input py-1 text-xs" onFocus={(e) => e.target.select()} />
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span>
                  {l.before_item_id ? 'Before/after · ' : ''}
                  {`${l.views} ${l.views === 1 ? 'view' : 'views'} · ${l.expires_at ? `until ${formatDate(l.expires_at)}` : 'no expiry'}`}
                </span>
                <span className="flex gap-1.5">
                  <button type="button" className="btn btn-secondary btn-sm px-2 py-1 text-xs" onClick={() => void copy(l.url)}>
                    <Copy className="size-3.5" aria-hidden="true" /> Copy
                  </button>
                  <button type="button" className="btn btn-ghost btn-sm px-2 py-1 text-xs text-red-300" onClick={() => revoke.mutate(l.id)} disabled={revoke.isPending}>
                    Turn off
                  </button>
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
