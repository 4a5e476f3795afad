import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Check, Clapperboard, Download, Film, Loader2, Play, RotateCw, Share2, X } from 'lucide-react';
import clsx from 'clsx';
import { toast } from '../../lib/toast';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { SharePanel } from './SharePanel';
import { DropZone } from './DropZone';
import { errorMessage } from '../../lib/api';
import type { DashboardViewProps, ViewId } from '../dashboard/view-ids';
import { downloadHref, libraryKeys, retryLibraryItem, upsertItems, useLibraryCounts, useLibraryList, useLibraryLiveUpdates } from './api';
import { toolLabel } from '../tools/form/registry';
import { isFailed, isPending, isReady, type LibraryItem } from '../../lib/library';
import { formatDuration, formatShortDate } from '../../lib/format';
import { EmptyState, GalleryHeader, GridSkeleton, ListFooter, LoadError, StorageUsage } from './GalleryParts';
import { Thumb } from './Thumb';
import { DeleteItemButton, useDeleteItem } from './useDeleteItem';
import { VirtualGrid } from './VirtualGrid';

export interface VideoGalleryProps {
  /** Picker mode: 'Select a Video', a tile click picks the video (onSelect). */
  selectionMode?: boolean;
  onSelect?: (item: LibraryItem) => void;
  openView?: (id: ViewId) => void;
}

/** requirements §9: up to 3 columns; one on a phone. */
const videoColumns = (w: number) => (w < 540 ? 1 : w < 900 ? 2 : 3);
const GAP = 16;
/** The fixed-height caption under each 16:9 tile (the grid is windowed: rows have one height). */
const CAPTION_PX = 76;

/**
 * requirements §2 video gallery: 'Your Videos' (or 'Select a Video'), a video drop
 * zone, a windowed grid of posters with m:ss durations; a tile click plays
 * the video inline (one at a time) and again stops it. Pending videos show
 * PENDING / 'Generating...' with their progress and a retry; failed ones
 * their error and a retry. Tool jobs ending (SSE) refresh the list, so a
 * pending video becomes playable without a reload.
 */
export function VideoGallery({ selectionMode = false, onSelect, openView }: VideoGalleryProps) {
  const qc = useQueryClient();
  const counts = useLibraryCounts();
  const list = useLibraryList('video', 'all');
  const progress = useLibraryLiveUpdates(['video']);
  const del = useDeleteItem();
  const titleId = useId();
  const [playing, setPlaying] = useState<string | null>(null);
  const [retrying, setRetrying] = useState<string | null>(null);


  const retry = async (item: LibraryItem) => {
    if (retrying) return;
    setRetrying(item.id);
    try {
      const next = await retryLibraryItem(item.id);
      upsertItems(qc, [next]);
      toast.success('Generating the video again');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to generate video'));
    } finally {
      setRetrying(null);
      void qc.invalidateQueries({ queryKey: libraryKeys.counts });
    }
  };

  const c = counts.data?.videos;
  const subtitle = c
    ? `${c.total.toLocaleString()} ${c.total === 1 ? 'video' : 'videos'}${c.total ? ` · ${c.generated.toLocaleString()} generated · ${c.uploaded.toLocaleString()} uploaded` : ''}`
    : selectionMode
      ? 'Pick one of your videos'
      : 'Everything you generated or uploaded';

  let body;
  if (list.isPending) {
    body = <GridSkeleton count={6} className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" tileClass="aspect-video" />;
  } else if (list.isError) {
    body = <LoadError error={list.error} onRetry={() => void list.refetch()} what="videos" />;
  } else if (!list.items.length && !list.hasNextPage) {
    body = (
      <EmptyState icon={Film} title="No Videos Generated">
        <p className="mt-1 max-w-sm text-sm text-zinc-400">Turn an image into a video, or upload one above.</p>
        {openView && !selectionMode && (
          <Button variant="secondary" size="sm" className="mt-5" onClick={() => openView('fal-image-to-video')}>
            <Clapperboard className="size-4" aria-hidden="true" /> Image to Video
          </Button>
        )}
      </EmptyState>
    );
  } else {
    body = (
      <>
        <VirtualGrid
          items={list.items}
          getKey={(i) => i.id}
          columns={videoColumns}
          rowHeight={(w) => (w * 9) / 16 + CAPTION_PX}
          gap={GAP}
          label="Videos"
          renderItem={(item) => (
            <VideoTile
              item={item}
              selectionMode={selectionMode}
              playing={playing === item.id}
              onTogglePlay={() => setPlaying((p) => (p === item.id ? null : item.id))}
              onSelect={onSelect}
              onDelete={del.request}
              deleting={del.deletingId === item.id}
              deleteLocked={del.busy}
              onRetry={() => void retry(item)}
              retrying={retrying === item.id}
              progress={item.job_id ? progress[item.job_id] : undefined}
            />
          )}
        />
        <ListFooter list={list} />
      </>
    );
  }

  return (
    <section
      aria-labelledby={titleId}
      className={clsx(
        'space-y-6',
        // No backdrop blur here: on a list thousands of pixels tall it cost more than the list (see VirtualGrid).
        !selectionMode && 'rounded-2xl border border-zinc-800 bg-zinc-900/70 p-4 sm:p-6 lg:p-8',
      )}
    >
      <GalleryHeader id={titleId} title={selectionMode ? 'Select a Video' : 'Your Videos'} subtitle={subtitle} icon={Film} actions={selectionMode ? undefined : <StorageUsage storage={counts.data?.storage} />} />
      <DropZone kind="video" onUploaded={selectionMode ? onSelect : undefined} />
      {body}
      {del.dialog}
    </section>
  );
}

function VideoTile({
  item,
  selectionMode,
  playing,
  onTogglePlay,
  onSelect,
  onDelete,
  deleting,
  deleteLocked,
  onRetry,
  retrying,
  progress,
}: {
  item: LibraryItem;
  selectionMode: boolean;
  playing: boolean;
  onTogglePlay: () => void;
  onSelect?: (item: LibraryItem) => void;
  onDelete: (item: LibraryItem) => void;
  deleting: boolean;
  deleteLocked: boolean;
  onRetry: () => void;
  retrying: boolean;
  progress?: number;
}) {
  const pending = isPending(item);
  const failed = isFailed(item);
  const playable = isReady(item);
  const source = item.is_generated ? toolLabel(item.generation_type) : 'Uploaded';
  const [sharing, setSharing] = useState(false);

  const media = (() => {
    if (playing && playable) {
      return (
        <>
          <video
            src={item.url}
            poster={item.thumbnail_url}
            preload="none"
            controls
            autoPlay
            playsInline
            className="size-full bg-black object-contain"
            aria-label={`${item.original_name} (playing)`}
          />
          <button
            type="button"
            onClick={onTogglePlay}
            aria-label={`Stop ${item.original_name}`}
            className="absolute top-2 right-2 flex size-8 items-center justify-center rounded-full bg-black/70 text-white transition hover:bg-black"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </>
      );
    }
    return (
      <button
        type="button"
        disabled={deleting || (!playable && !selectionMode) || (selectionMode && !playable)}
        onClick={() => (selectionMode ? onSelect?.(item) : onTogglePlay())}
        aria-label={
          playable
            ? `${selectionMode ? 'Select' : 'Play'} ${item.original_name} ${formatDuration(item.duration_seconds)}`
            : `${item.original_name} (${pending ? 'generating' : failed ? 'failed' : 'not available'})`
        }
        className="group/media peer absolute inset-0 block size-full cursor-pointer outline-none disabled:cursor-default"
      >
        {item.thumbnail_url ? (
          <Thumb item={item} className="size-full" />
        ) : (
          <span className="flex size-full items-center justify-center bg-gradient-to-br from-zinc-800 to-zinc-900">
            {!pending && <Film className="size-8 text-zinc-600" aria-hidden="true" />}
          </span>
        )}
        {playable && (
          <span className="absolute inset-0 flex items-center justify-center bg-black/10 transition group-hover/media:bg-black/30">
            <span className="flex size-12 items-center justify-center rounded-full bg-black/60 text-white ring-1 ring-white/20 transition group-hover/media:scale-110 group-hover/media:bg-fuchsia-600/90">
              {selectionMode ? <Check className="size-5" aria-hidden="true" /> : <Play className="ml-0.5 size-5" fill="currentColor" aria-hidden="true" />}
            </span>
          </span>
        )}
        {playable && (
          <span className="absolute right-2 bottom-2 rounded-md bg-black/75 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums" data-testid="duration">
            {formatDuration(item.duration_seconds)}
          </span>
        )}
        {pending && (
          <span aria-hidden="true" className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-black/50 text-amber-100">
            <Loader2 className="size-6 animate-spin" aria-hidden="true" />
            <span className="text-sm font-semibold">
              Generating...{progress !== undefined && progress > 0 ? ` ${Math.round(progress * 100)}%` : ''}
            </span>
          </span>
        )}
        {failed && (
          <span aria-hidden="true" className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-black/60 px-4 text-center text-red-200">
            <AlertTriangle className="size-6 text-red-400" aria-hidden="true" />
            <span className="line-clamp-3 text-xs">{item.error || 'The video could not be generated.'}</span>
          </span>
        )}
      </button>
    );
  })();

  return (
    <div
      data-testid="video-tile"
      className={clsx(
        'flex size-full flex-col overflow-hidden rounded-xl border bg-zinc-900 transition',
        pending
          ? 'border-amber-400/60 shadow-[0_0_0_1px_rgba(251,191,36,0.25),0_0_24px_-6px_rgba(251,191,36,0.35)]'
          : failed
            ? 'border-red-500/50'
            : playing
              ? 'border-fuchsia-500/60'
              : 'border-zinc-800 hover:border-zinc-600',
        deleting && 'opacity-60',
      )}
    >
      <div className="relative aspect-video w-full shrink-0 overflow-hidden bg-black">
        {media}
        {/* The poster covers the button's own outline: a ring drawn over it instead. */}
        <span className="pointer-events-none absolute inset-0 hidden rounded-t-xl ring-2 ring-fuchsia-400 ring-inset peer-focus-visible:block" />
        {(pending || failed) && (
          <span className={clsx('badge pointer-events-none absolute top-2 left-2', pending ? 'bg-amber-400 text-zinc-950' : 'bg-red-500 text-white')}>
            {pending ? 'PENDING' : 'FAILED'}
          </span>
        )}
      </div>

      <div className="flex min-h-0 flex-1 items-center gap-2 px-3">
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-zinc-100" title={item.original_name}>
            {item.original_name}
          </p>
          <p className="truncate text-xs text-zinc-400">
            {source} · {formatShortDate(item.created_at)}
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-1">
          {(pending || failed) && (
            <Button variant="secondary" size="sm" loading={retrying} onClick={onRetry} aria-label={`Retry ${item.original_name}`}>
              {!retrying && <RotateCw className="size-3.5" aria-hidden="true" />} Retry
            </Button>
          )}
          {playable && (
            <a
              href={downloadHref(item)}
              download={item.original_name}
              aria-label={`Download ${item.original_name}`}
              title="Download"
              className="flex size-8 items-center justify-center rounded-lg text-zinc-400 transition hover:bg-zinc-800 hover:text-white"
            >
              <Download className="size-4" aria-hidden="true" />
            </a>
          )}
          {playable && !selectionMode && (
            <button
              type="button"
              onClick={() => setSharing(true)}
              aria-label={`Share ${item.original_name}`}
              title="Share"
              className="flex size-8 items-center justify-center rounded-lg text-zinc-400 transition hover:bg-zinc-800 hover:text-white"
            >
              <Share2 className="size-4" aria-hidden="true" />
            </button>
          )}
          {!selectionMode && (
            <DeleteItemButton
              item={item}
              deleting={deleting}
              locked={deleteLocked}
              onDelete={onDelete}
              title="Delete"
              className={clsx(
                'flex size-8 items-center justify-center rounded-lg transition hover:bg-red-500/15 disabled:cursor-not-allowed',
                deleting ? 'text-zinc-200' : 'text-zinc-400 hover:text-red-300 disabled:opacity-40',
              )}
            />
          )}
        </div>
      </div>
      <Modal open={sharing} onOpenChange={setSharing} title={item.original_name} description="A public link to this video, for anyone you send it to.">
        {sharing && <SharePanel item={item} />}
      </Modal>
    </div>
  );
}

/** The dashboard view 'video-gallery'. */
export default function VideoGalleryView({ openView, selectionMode, onSelect }: DashboardViewProps & VideoGalleryProps) {
  return <VideoGallery openView={openView} selectionMode={selectionMode} onSelect={onSelect} />;
}
