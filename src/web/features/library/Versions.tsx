import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { GitCompareArrows, Sparkles, Wand2, Wrench } from 'lucide-react';
import clsx from 'clsx';
import { fetchVersions, libraryKeys } from './api';
import { toolLabel } from '../tools/form/registry';
import type { LibraryItem } from '../../lib/library';
import { toolWithSource } from './TileActions';
import type { ViewId } from '../dashboard/view-ids';

/** The chain of the picture an item belongs to (decision 034). */
export function useVersions(item: LibraryItem | null) {
  return useQuery({
    queryKey: [...libraryKeys.root, 'versions', item?.id],
    queryFn: ({ signal }) => fetchVersions(item!.id, signal),
    enabled: !!item && item.kind === 'image',
    staleTime: 30_000,
  });
}

/** A version's name in the chain: 'Original', or the tool that made it. */
export function versionLabel(v: LibraryItem): string {
  return v.is_generated ? toolLabel(v.generation_type) : 'Original';
}

/** '2. AI Image Restore': its place in the chain and what made it. */
export const versionName = (versions: LibraryItem[], v: LibraryItem) => `${versions.indexOf(v) + 1}. ${versionLabel(v)}`;

const RUN_TOOLS: Array<{ view: ViewId; label: string; icon: typeof Sparkles }> = [
  { view: 'fal-image-restore', label: 'Restore', icon: Wrench },
  { view: 'fal-upscaler', label: 'Upscale', icon: Sparkles },
  { view: 'fal-image-editor', label: 'Edit', icon: Wand2 },
];

/**
 * Versions of the picture: the chain in order (pick one to see it), another tool on the version
 * shown, and any two versions side by side in the compare slider.
 */
export function VersionsPanel({
  versions,
  shownId,
  onShow,
  compare,
  onCompare,
}: {
  versions: LibraryItem[];
  shownId: string;
  onShow: (id: string) => void;
  compare: { a: string; b: string } | null;
  onCompare: (c: { a: string; b: string } | null) => void;
}) {
  const id = useId();
  const ready = versions.filter((v) => v.url);
  const label = (v: LibraryItem) => versionName(versions, v);
  return (
    <section aria-labelledby={`${id}-h`} className="space-y-3 rounded-xl border border-zinc-800 bg-zinc-950/50 p-3" data-testid="versions">
      <h3 id={`${id}-h`} className="text-xs font-semibold tracking-wider text-fuchsia-300/90 uppercase">
        Versions
      </h3>
      <ol className="space-y-1">
        {versions.map((v, i) => (
          <li key={v.id}>
            <button
              type="button"
              onClick={() => {
                onCompare(null);
                onShow(v.id);
              }}
              aria-current={v.id === shownId && !compare ? 'true' : undefined}
              className={clsx(
                'flex min-h-11 w-full items-center gap-2.5 rounded-lg px-2 py-1.5 text-left text-sm transition',
                v.id === shownId && !compare ? 'bg-fuchsia-600/20 text-white' : 'text-zinc-300 hover:bg-zinc-800',
              )}
            >
              {v.thumbnail_url ? (
                <img src={v.thumbnail_url} alt="" className="size-10 shrink-0 rounded object-cover" />
              ) : (
                <span className="size-10 shrink-0 rounded bg-zinc-800" aria-hidden="true" />
              )}
              {/* Name and size on two lines: a narrow column (a phone, or the detail's side panel) keeps both whole. */}
              <span className="min-w-0 flex-1">
                <span className="block break-words">
                  {i + 1}. {versionLabel(v)}
                </span>
                {v.width && v.height && <span className="block text-xs text-zinc-400 tabular-nums">{`${v.width} × ${v.height}`}</span>}
              </span>
            </button>
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap items-center gap-1.5 text-xs text-zinc-400">
        <span className="w-full">Run on this version:</span>
        {RUN_TOOLS.map((t) => (
          <Link
            key={t.view}
            to={toolWithSource(t.view, shownId)}
            className="inline-flex min-h-9 flex-1 items-center justify-center gap-1 rounded-md border border-zinc-700 px-2 py-1 font-medium text-zinc-200 transition hover:border-fuchsia-400 hover:text-white"
          >
            <t.icon className="size-3.5" aria-hidden="true" /> {t.label}
          </Link>
        ))}
      </div>
      {ready.length >= 2 && (
        <div className="space-y-2">
          {/* One choice a row, its label beside it: two selects side by side left each too narrow for a version's name. */}
          <div className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-2 gap-y-2">
            {(['a', 'b'] as const).map((side) => (
              <label key={side} className="col-span-2 grid grid-cols-subgrid items-center text-xs text-zinc-400">
                {side === 'a' ? 'Compare' : 'with'}
                <select
                  className="input py-1.5 text-sm"
                  value={compare?.[side] ?? (side === 'a' ? ready[0]!.id : ready[ready.length - 1]!.id)}
                  onChange={(e) => {
                    const current = compare ?? { a: ready[0]!.id, b: ready[ready.length - 1]!.id };
                    onCompare({ ...current, [side]: e.target.value });
                  }}
                >
                  {ready.map((v) => (
                    <option key={v.id} value={v.id}>
                      {label(v)}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
          <button
            type="button"
            className="btn btn-secondary btn-sm w-full"
            onClick={() => onCompare(compare ?? { a: ready[0]!.id, b: ready[ready.length - 1]!.id })}
            aria-pressed={!!compare}
          >
            <GitCompareArrows className="size-4" aria-hidden="true" /> Compare versions
          </button>
        </div>
      )}
    </section>
  );
}
