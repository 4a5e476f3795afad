import { useEffect, useState, type ReactNode } from 'react';
import { Dialog } from 'radix-ui';
import { Download, ImageOff, Loader2, Share2, Trash2, X } from 'lucide-react';
import clsx from 'clsx';
import { Button } from '../../components/Button';
import { useRestoreFocus } from './restoreFocus';
import { DownloadAs } from './DownloadAs';
import { CompareSlider } from '../../components/CompareSlider';
import { useVersions, versionName, VersionsPanel } from './Versions';
import { SharePanel } from './SharePanel';
import { downloadHref } from './api';
import { toolLabel } from '../tools/form/registry';
import { isReady, type LibraryItem } from '../../lib/library';
import { formatBytes, formatDate } from '../../lib/format';

/**
 * requirements §2 image detail: the image, name, type, created date, size (uploaded)
 * or AI tool (generated), Download and Close. Radix Dialog: Escape closes,
 * page scroll is locked, focus is trapped and returns to the tile.
 * The thumbnail shows at once; the full image fades in over it when loaded.
 */
export function ImageDetailDialog({
  item,
  onClose,
  onDelete,
  deleting,
}: {
  item: LibraryItem | null;
  onClose: () => void;
  onDelete?: (item: LibraryItem) => void;
  deleting?: boolean;
}) {
  const focus = useRestoreFocus();
  return (
    <Dialog.Root open={!!item} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/80 backdrop-blur-sm data-[state=open]:animate-[fade-in_150ms_ease-out]" />
        <Dialog.Content
          {...focus}
          className={clsx(
            'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-5xl -translate-x-1/2 -translate-y-1/2 flex-col',
            // A phone scrolls the whole dialog as one column (picture, details, versions, buttons); wider screens keep the side panel.
            'scroll-thin overflow-x-hidden overflow-y-auto rounded-2xl border border-zinc-800 bg-zinc-900 shadow-2xl shadow-black/60 outline-none md:flex-row md:overflow-hidden',
          )}
        >
          {item && <DetailBody item={item} onDelete={onDelete} deleting={deleting} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function DetailBody({ item: opened, onDelete, deleting }: { item: LibraryItem; onDelete?: (item: LibraryItem) => void; deleting?: boolean }) {
  const [loaded, setLoaded] = useState(false);
  const [broken, setBroken] = useState(false);
  // Versions of the picture (decision 034): the one shown, and two compared.
  const versions = useVersions(opened);
  const [shownId, setShownId] = useState(opened.id);
  const [compare, setCompare] = useState<{ a: string; b: string } | null>(null);
  const [sharing, setSharing] = useState(false);
  useEffect(() => {
    setShownId(opened.id);
    setCompare(null);
    setSharing(false);
  }, [opened.id]);
  const chain = versions.data ?? [];
  const item = chain.find((v) => v.id === shownId) ?? opened;
  const compared = compare && { a: chain.find((v) => v.id === compare.a), b: chain.find((v) => v.id === compare.b) };
  useEffect(() => {
    setLoaded(false);
    setBroken(false);
  }, [item.url]);
  const ready = isReady(item);

  const rows: Array<[string, ReactNode]> = [
    ['Type', item.content_type],
    ['Created', formatDate(item.created_at)],
    item.is_generated ? ['AI tool', toolLabel(item.generation_type)] : ['Size', formatBytes(item.file_size)],
  ];
  if (item.width && item.height) rows.push(['Dimensions', `${item.width} × ${item.height}`]);
  if (item.is_generated && item.file_size > 0) rows.push(['Size', formatBytes(item.file_size)]);

  return (
    <>
      <div className="relative flex min-h-56 shrink-0 items-center justify-center md:flex-1 md:shrink bg-zinc-950 bg-[repeating-conic-gradient(#1c1c20_0_25%,#151518_0_50%)] bg-[length:20px_20px] md:min-h-[28rem]">
        {compared?.a?.url && compared.b?.url ? (
          <div className="w-full p-3" data-testid="versions-compare">
            <CompareSlider
              key={`${compared.a.id}-${compared.b.id}`}
              beforeSrc={compared.a.url}
              afterSrc={compared.b.url}
              beforeLabel={versionName(chain, compared.a)}
              afterLabel={versionName(chain, compared.b)}
            />
          </div>
        ) : ready && !broken ? (
          <>
            {!loaded && item.thumbnail_url && (
              <img src={item.thumbnail_url} alt="" aria-hidden="true" className="absolute inset-0 size-full object-contain blur-sm" />
            )}
            <img
              src={item.url}
              alt={item.original_name}
              decoding="async"
              onLoad={() => setLoaded(true)}
              onError={() => setBroken(true)}
              className={clsx(
                'relative max-h-[45dvh] w-full object-contain transition-opacity duration-300 md:max-h-[calc(100dvh-4rem)]',
                loaded ? 'opacity-100' : 'opacity-0',
              )}
            />
            {!loaded && (
              <Loader2 className="absolute size-6 animate-spin text-white/80" aria-label="Loading image" />
            )}
          </>
        ) : (
          <div className="flex flex-col items-center gap-2 p-10 text-sm text-zinc-400">
            <ImageOff className="size-8" aria-hidden="true" />
            {broken ? 'The image could not be loaded.' : item.status === 'failed' ? 'This image failed to generate.' : 'Generating...'}
          </div>
        )}
      </div>

      <div className="flex w-full shrink-0 flex-col border-t border-zinc-800 md:w-80 md:border-t-0 md:border-l">
        <div className="flex items-start justify-between gap-3 p-5 pb-3">
          <div className="min-w-0">
            <p className="text-xs font-semibold tracking-wider text-fuchsia-300/90 uppercase">
              {item.is_generated ? 'Generated' : 'Uploaded'}
            </p>
            <Dialog.Title className="mt-1 text-lg leading-snug font-bold break-words text-white">{item.original_name}</Dialog.Title>
            <Dialog.Description className="sr-only">Details of this image</Dialog.Description>
          </div>
          <Dialog.Close className="-mt-1 -mr-2 rounded-lg p-2 text-zinc-400 transition hover:bg-zinc-800 hover:text-white" aria-label="Close details">
            <X className="size-5" aria-hidden="true" />
          </Dialog.Close>
        </div>

        <dl className="scroll-thin grid grid-cols-[auto_1fr] content-start gap-x-4 gap-y-2.5 px-5 pb-4 text-sm md:flex-1 md:overflow-y-auto">
          {rows.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-zinc-400">{k}</dt>
              <dd className="min-w-0 text-right break-words text-zinc-200">{v}</dd>
            </div>
          ))}
          {item.prompt && (
            <div className="col-span-2 mt-1 rounded-xl border border-zinc-800 bg-zinc-950/50 p-3">
              <dt className="text-xs text-zinc-400">Prompt</dt>
              <dd className="mt-1 text-sm break-words text-zinc-300">{item.prompt}</dd>
            </div>
          )}
        </dl>
        {(chain.length > 1 || sharing) && (
          <div className="scroll-thin shrink-0 space-y-3 px-5 pb-4 md:max-h-[40dvh] md:overflow-y-auto">
            {sharing && ready && <SharePanel item={item} />}
            {chain.length > 1 && <VersionsPanel versions={chain} shownId={item.id} onShow={setShownId} compare={compare} onCompare={setCompare} />}
          </div>
        )}

        <div className="flex flex-wrap gap-2 border-t border-zinc-800 p-4">
          {ready && <DownloadAs itemId={item.id} current={item.content_type} className="flex w-full flex-wrap items-center gap-1.5 text-xs text-zinc-400" />}
          {ready ? (
            <a href={downloadHref(item)} download={item.original_name} className="btn btn-primary flex-1">
              <Download className="size-4" aria-hidden="true" /> Download
            </a>
          ) : (
            <Button className="flex-1" disabled>
              <Download className="size-4" aria-hidden="true" /> Download
            </Button>
          )}
          {ready && (
            <Button variant="secondary" className="flex-1" onClick={() => setSharing((v) => !v)} aria-expanded={sharing}>
              <Share2 className="size-4" aria-hidden="true" /> Share
            </Button>
          )}
          <Dialog.Close asChild>
            <Button variant="secondary" className="flex-1">
              Close
            </Button>
          </Dialog.Close>
          {onDelete && (
            <Button
              variant="ghost"
              className="w-full text-red-300 hover:bg-red-500/10 hover:text-red-200"
              loading={deleting}
              onClick={() => onDelete(item)}
            >
              {!deleting && <Trash2 className="size-4" aria-hidden="true" />} Delete image
            </Button>
          )}
        </div>
      </div>
    </>
  );
}
