import { useId, useState } from 'react';
import { Tabs } from 'radix-ui';
import { Link } from 'react-router';
import { Check, ImageIcon, Images, Layers, Loader2, Sparkles, Upload, Wand2 } from 'lucide-react';
import clsx from 'clsx';
import { Button } from '../../components/Button';
import { DropZone } from './DropZone';
import { viewPath, type DashboardViewProps, type ViewId } from '../dashboard/view-ids';
import { useLibraryCounts, useLibraryList, useLibraryLiveUpdates } from './api';
import { toolLabel } from '../tools/form/registry';
import { isFailed, isPending, type LibraryGroup, type LibraryItem } from '../../lib/library';
import { formatShortDate } from '../../lib/format';
import { EmptyState, GalleryHeader, GridSkeleton, ListFooter, LoadError, StorageUsage } from './GalleryParts';
import { ImageDetailDialog } from './ImageDetailDialog';
import { BatchGroups } from '../batch/BatchGroups';
import { SharedLinks } from './SharedLinks';
import { useBatchList } from '../batch/batchApi';
import { SelectionBar, useGallerySelection, type MultiSelect } from './GallerySelection';
import { Thumb } from './Thumb';
import { TileActions } from './TileActions';
import { DeleteItemButton, useDeleteItem } from './useDeleteItem';
import { VirtualGrid } from './VirtualGrid';

export interface ImageGalleryProps {
  /** Picker mode: 'Select an Image', a click picks the item (onSelect) instead of opening it. */
  selectionMode?: boolean;
  onSelect?: (item: LibraryItem) => void;
  /** To suggest a tool from the empty state (dashboard only). */
  openView?: (id: ViewId) => void;
  /** Choosing many (a batch's images): each tile is a checkbox, kept by the caller. */
  multiSelect?: MultiSelect;
}

/** requirements §9: up to 4 columns; 2 on a phone. */
const imageColumns = (w: number) => (w < 560 ? 2 : w < 860 ? 3 : 4);
const GAP = 12;
/**
 * Below this column width (two columns on a phone) a tile is a card: the picture whole on top,
 * its name, date and actions menu in a bar under it, so no button sits on the picture. The tile's
 * own container queries (`@max-[218px]/tile`: its inner width, border aside) follow the same line.
 */
const COMPACT_TILE = 220;
const CAPTION_BAR = 68;
const tileRowHeight = (w: number) => (w < COMPACT_TILE ? w + CAPTION_BAR : w);

/**
 * requirements §2 image gallery: 'Your Images' (or 'Select an Image'), an upload
 * drop zone, the Generated and Uploaded groups with their counts, a windowed
 * grid of thumbnails paged by cursor as you scroll, a detail dialog, and
 * delete one at a time.
 */
export function ImageGallery({ selectionMode = false, onSelect, openView, multiSelect }: ImageGalleryProps) {
  const counts = useLibraryCounts();
  // The gallery's own 'Select' mode, when no caller keeps the choice.
  const own = useGallerySelection();
  const picking = multiSelect ?? (!selectionMode && own.active ? own : undefined);
  const [group, setGroup] = useState<LibraryGroup | 'batches' | 'shares'>('all');
  // A picker chooses images; the batches they came from are for browsing.
  const showBatches = !selectionMode && !multiSelect;
  const [detail, setDetail] = useState<LibraryItem | null>(null);
  const del = useDeleteItem();
  const titleId = useId();
  useLibraryLiveUpdates(['image']);

  const c = counts.data?.images;
  const subtitle = c
    ? `${c.total.toLocaleString()} ${c.total === 1 ? 'image' : 'images'}`
    : selectionMode
      ? 'Pick one of your images'
      : 'Everything you uploaded or generated';

  const groups: Array<{ id: LibraryGroup; label: string; count?: number }> = [
    { id: 'all', label: 'All', count: c?.total },
    { id: 'generated', label: 'Generated', count: c?.generated },
    { id: 'uploaded', label: 'Uploaded', count: c?.uploaded },
  ];

  const noneAtAll = c?.total === 0;

  return (
    <section
      aria-labelledby={titleId}
      className={clsx(
        'space-y-6',
        // No backdrop blur here: on a list thousands of pixels tall it cost more than the list (see VirtualGrid).
        !selectionMode && !multiSelect && 'rounded-2xl border border-zinc-800 bg-zinc-900/70 p-4 sm:p-6 lg:p-8',
        // Room for the selection bar along the bottom of the window.
        own.active && !multiSelect && 'pb-24 sm:pb-24 lg:pb-24',
      )}
    >
      <GalleryHeader id={titleId} title={selectionMode ? 'Select an Image' : multiSelect ? 'Select Images' : 'Your Images'} subtitle={subtitle} icon={Images} actions={selectionMode || multiSelect ? undefined : <StorageUsage storage={counts.data?.storage} />} />

      <DropZone
        kind="image"
        onUploaded={
          selectionMode
            ? onSelect
            : multiSelect
              ? (item) => {
                  // Choosing many: a new upload joins the choice (an upload the server already had may be in it).
                  if (!multiSelect.selected.has(item.id)) multiSelect.onToggle(item);
                }
              : undefined
        }
      />

      {!selectionMode && !multiSelect && !noneAtAll && <SelectionBar selection={own} />}

      {noneAtAll ? (
        <EmptyState icon={ImageIcon} title="No Images Yet">
          <p className="mt-1 max-w-sm text-sm text-zinc-400">
            Upload an image above, or create one with an AI tool. Everything you make lands here.
          </p>
          {openView && !selectionMode && (
            <div className="mt-5 flex flex-wrap justify-center gap-2">
              <Button variant="secondary" size="sm" onClick={() => openView('fal-image-editor')}>
                <Wand2 className="size-4" aria-hidden="true" /> Image Editor
              </Button>
              <Button variant="secondary" size="sm" onClick={() => openView('fal-image-restore')}>
                <Sparkles className="size-4" aria-hidden="true" /> Image Restore
              </Button>
            </div>
          )}
        </EmptyState>
      ) : (
        <Tabs.Root value={group} onValueChange={(v) => setGroup(v as LibraryGroup | 'batches' | 'shares')}>
          {/* On a phone the tabs share the width, count under label, so 'Batches' is never scrolled out of sight. */}
          <Tabs.List aria-label="Image groups" className="mb-5 grid auto-cols-fr grid-flow-col gap-1 border-b border-zinc-800 sm:flex sm:overflow-x-auto">
            {groups.map((g) => (
              <GroupTab key={g.id} value={g.id} label={g.label} count={g.count} />
            ))}
            {showBatches && <BatchesTab />}
            {showBatches && <GroupTab value="shares" label="Shared links" short="Links" count={null} />}
          </Tabs.List>
          {showBatches && (
            <Tabs.Content value="batches" className="outline-none">
              <BatchGroups />
            </Tabs.Content>
          )}
          {showBatches && (
            <Tabs.Content value="shares" className="outline-none">
              <SharedLinks />
            </Tabs.Content>
          )}
          {groups.map((g) => (
            <Tabs.Content key={g.id} value={g.id} className="outline-none">
              <ImageGroup
                group={g.id}
                selectionMode={selectionMode}
                picking={picking}
                onOpen={(item) => (selectionMode ? onSelect?.(item) : setDetail(item))}
                onDelete={del.request}
                deletingId={del.deletingId}
              />
            </Tabs.Content>
          ))}
        </Tabs.Root>
      )}

      <ImageDetailDialog
        item={detail}
        onClose={() => setDetail(null)}
        deleting={!!detail && del.deletingId === detail.id}
        onDelete={(item) => {
          setDetail(null);
          del.request(item);
        }}
      />
      {del.dialog}
    </section>
  );
}

/** A tab of My Images with its count (null: a tab without one); `short` is its label on a phone, where five tabs share the width. */
function GroupTab({ value, label, short, count }: { value: string; label: string; short?: string; count?: number | null }) {
  return (
    <Tabs.Trigger
      value={value}
      aria-label={short ? label : undefined}
      className={clsx(
        '-mb-px flex min-w-0 shrink-0 flex-col items-center gap-1 border-b-2 border-transparent px-1 py-2 text-xs font-medium sm:text-sm sm:flex-row sm:gap-2 sm:px-3 sm:py-2.5 text-zinc-400 transition focus-visible:outline-offset-[-2px]',
        'hover:text-zinc-100 data-[state=active]:border-fuchsia-400 data-[state=active]:text-white',
      )}
    >
      {short ? (
        <>
          <span className="sm:hidden">{short}</span>
          <span className="hidden sm:inline">{label}</span>
        </>
      ) : (
        label
      )}
      {count !== null && (
        <span className="min-w-6 rounded-full bg-zinc-800 px-1.5 py-0.5 text-center text-xs font-semibold text-zinc-300 tabular-nums" data-testid={`count-${value}`}>
          {count === undefined ? '–' : count.toLocaleString()}
        </span>
      )}
    </Tabs.Trigger>
  );
}

/** Results of batch runs, one group per batch (the grid tabs keep their plain order). */
function BatchesTab() {
  return <GroupTab value="batches" label="Batches" count={useBatchList().total} />;
}

function ImageGroup({
  group,
  selectionMode,
  picking,
  onOpen,
  onDelete,
  deletingId,
}: {
  group: LibraryGroup;
  selectionMode: boolean;
  picking?: MultiSelect;
  onOpen: (item: LibraryItem) => void;
  onDelete: (item: LibraryItem) => void;
  deletingId: string | null;
}) {
  const list = useLibraryList('image', group);

  if (list.isPending) {
    return <GridSkeleton count={8} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" tileClass="aspect-square" />;
  }
  if (list.isError) return <LoadError error={list.error} onRetry={() => void list.refetch()} what="images" />;
  if (!list.items.length && !list.hasNextPage) {
    return group === 'uploaded' ? (
      <EmptyState icon={Upload} title="No Images Uploaded">
        <p className="mt-1 max-w-sm text-sm text-zinc-400">Drop an image in the box above to add your own.</p>
      </EmptyState>
    ) : (
      <EmptyState icon={Sparkles} title={group === 'generated' ? 'No Images Generated' : 'No Images Yet'}>
        <p className="mt-1 max-w-sm text-sm text-zinc-400">Results from the AI tools appear here.</p>
      </EmptyState>
    );
  }

  return (
    <>
      <VirtualGrid
        items={list.items}
        getKey={(i) => i.id}
        columns={imageColumns}
        rowHeight={tileRowHeight}
        gap={GAP}
        label={group === 'all' ? 'Images' : group === 'generated' ? 'Generated images' : 'Uploaded images'}
        renderItem={(item) => (
          <ImageTile
            item={item}
            selectionMode={selectionMode}
            checked={picking ? picking.selected.has(item.id) : undefined}
            onToggle={picking?.onToggle}
            onOpen={onOpen}
            onDelete={onDelete}
            deleting={deletingId === item.id}
            deleteLocked={deletingId !== null}
          />
        )}
      />
      <ListFooter list={list} />
    </>
  );
}

function ImageTile({
  item,
  selectionMode,
  checked,
  onToggle,
  onOpen,
  onDelete,
  deleting,
  deleteLocked,
}: {
  item: LibraryItem;
  selectionMode: boolean;
  /** Set while choosing many: the tile is a checkbox. */
  checked?: boolean;
  onToggle?: (item: LibraryItem) => void;
  onOpen: (item: LibraryItem) => void;
  onDelete: (item: LibraryItem) => void;
  deleting: boolean;
  deleteLocked: boolean;
}) {
  const pending = isPending(item);
  const failed = isFailed(item);
  const source = item.is_generated ? toolLabel(item.generation_type) : 'Uploaded';
  const multi = checked !== undefined;
  const pickable = (!selectionMode && !multi) || (!pending && !failed && !!item.url);

  return (
    <div
      className={clsx(
        'group @container/tile relative size-full overflow-hidden rounded-xl border bg-zinc-900 transition',
        // The tile's own outline would sit under the picture: ring the tile instead.
        'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-fuchsia-400 has-[:focus-visible]:ring-offset-2 has-[:focus-visible]:ring-offset-zinc-900',
        pending ? 'border-amber-400/50' : failed ? 'border-red-500/40' : checked ? 'border-fuchsia-400 ring-2 ring-fuchsia-400/60' : 'border-zinc-800 hover:border-zinc-600',
        deleting && 'opacity-60',
      )}
      data-testid="image-tile"
    >
      <button
        type="button"
        onClick={() => (multi ? onToggle?.(item) : onOpen(item))}
        disabled={deleting || !pickable}
        role={multi ? 'checkbox' : undefined}
        aria-checked={multi ? checked : undefined}
        // Holds every word shown on the tile, for speech input ('click sunset.png').
        aria-label={`${selectionMode || multi ? 'Select' : 'Open'} ${item.original_name} ${source} · ${formatShortDate(item.created_at)}`}
        className="absolute inset-0 block size-full cursor-pointer rounded-xl outline-none disabled:cursor-default @max-[218px]/tile:flex @max-[218px]/tile:flex-col"
      >
        {pending && !item.thumbnail_url ? (
          <span className="block size-full bg-gradient-to-br from-zinc-800 to-zinc-900 @max-[218px]/tile:aspect-square @max-[218px]/tile:h-auto @max-[218px]/tile:shrink-0" />
        ) : (
          <Thumb item={item} className="size-full transition duration-300 group-hover:scale-[1.03] @max-[218px]/tile:aspect-square @max-[218px]/tile:h-auto @max-[218px]/tile:shrink-0" />
        )}
        <span
          className={clsx(
            'pointer-events-none absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/85 via-black/50 to-transparent px-3 pt-8 pb-2.5 text-left transition',
            // Always shown on touch screens and phone widths, where there is no hover to reveal it.
            'opacity-100 sm:[@media(hover:hover)]:opacity-0 sm:[@media(hover:hover)]:group-hover:opacity-100 sm:[@media(hover:hover)]:group-focus-within:opacity-100',
            // A card on a phone: the bar under the picture, room on the right for the actions menu.
            '@max-[218px]/tile:bg-none @max-[218px]/tile:pt-2 @max-[218px]/tile:pr-11 @max-[218px]/tile:pb-2 @max-[218px]/tile:opacity-100',
          )}
        >
          <span className="block truncate text-sm font-medium text-white">{item.original_name}</span>{' '}
          <span className="block truncate text-xs text-zinc-300">
            {/* A plain space between source and date in both layouts: speech input and axe read the words apart. */}
            {source}{' '}
            <span className="@max-[218px]/tile:hidden">· </span>
            <span className="@max-[218px]/tile:block">{formatShortDate(item.created_at)}</span>
          </span>
        </span>
      </button>

      {(pending || failed) && (
        <span
          className={clsx(
            'badge pointer-events-none absolute top-2 left-2',
            pending ? 'bg-amber-400 text-zinc-950' : 'bg-red-500 text-white',
          )}
        >
          {pending ? 'PENDING' : 'FAILED'}
        </span>
      )}
      {item.batch_id && !pending && !failed && !selectionMode && !multi && (
        <Link
          to={viewPath('batch', item.batch_id)}
          className="badge absolute top-2 left-2 flex items-center gap-1 bg-black/70 text-zinc-100 ring-1 ring-zinc-600 hover:bg-zinc-800 hover:text-white"
        >
          <Layers className="size-3" aria-hidden="true" />
          Batch<span className="sr-only"> of {item.original_name}</span>
        </Link>
      )}
      {pending && (
        <span className="pointer-events-none absolute inset-0 flex items-center justify-center gap-2 bg-black/40 text-sm font-medium text-amber-100">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Generating...
        </span>
      )}

      {!selectionMode && !multi && <TileActions item={item} onOpen={onOpen} onDelete={onDelete} deleteLocked={deleteLocked} />}
      {multi ? (
        <span
          aria-hidden="true"
          data-testid="tile-checkbox"
          className={clsx(
            'pointer-events-none absolute top-2 right-2 flex size-7 items-center justify-center rounded-md border-2 transition',
            checked ? 'border-fuchsia-400 bg-fuchsia-500 text-white' : 'border-zinc-300 bg-black/60 text-transparent',
          )}
        >
          <Check className="size-4" />
        </span>
      ) : selectionMode ? (
        <span className="pointer-events-none absolute top-2 right-2 flex size-7 items-center justify-center rounded-full bg-black/60 text-white opacity-0 transition group-hover:opacity-100">
          <Check className="size-4" aria-hidden="true" />
        </span>
      ) : (
        <DeleteItemButton
          item={item}
          deleting={deleting}
          locked={deleteLocked}
          onDelete={onDelete}
          className={clsx(
            'absolute top-2 right-2 flex size-8 items-center justify-center rounded-full bg-black/60 text-zinc-200 transition @max-[218px]/tile:hidden',
            'hover:bg-red-600 hover:text-white disabled:cursor-not-allowed',
            deleting
              ? 'opacity-100'
              : 'opacity-100 sm:[@media(hover:hover)]:opacity-0 [@media(hover:hover)]:group-hover:opacity-100 [@media(hover:hover)]:group-focus-within:opacity-100 disabled:[@media(hover:hover)]:group-hover:opacity-40',
          )}
        />
      )}
    </div>
  );
}

/** The dashboard view 'gallery'. */
export default function ImageGalleryView({ openView, selectionMode, onSelect }: DashboardViewProps & ImageGalleryProps) {
  return <ImageGallery openView={openView} selectionMode={selectionMode} onSelect={onSelect} />;
}
