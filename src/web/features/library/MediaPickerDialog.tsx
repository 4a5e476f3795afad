import { lazy, Suspense } from 'react';
import { Dialog } from 'radix-ui';
import { X } from 'lucide-react';
import type { LibraryItem, MediaKind } from '../../lib/library';
import type { MultiSelect } from './GallerySelection';
import { InlineLoader } from '../../components/LoadingScreen';

const ImageGallery = lazy(() => import('./ImageGalleryView').then((m) => ({ default: m.ImageGallery })));
const VideoGallery = lazy(() => import('./VideoGalleryView').then((m) => ({ default: m.VideoGallery })));

/**
 * The whole gallery as a picker ('Select an Image' / 'Select a Video'): the
 * same windowed grid, scrolling inside the dialog, a click picks the item.
 *
 *   <MediaPickerDialog kind="image" open={open} onOpenChange={setOpen} onSelect={(item) => ...} />
 *
 * With `multiSelect` (images only) the tiles are checkboxes and the dialog stays open until 'Done'.
 */
export function MediaPickerDialog({
  kind,
  open,
  onOpenChange,
  onSelect,
  multiSelect,
}: {
  kind: MediaKind;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSelect?: (item: LibraryItem) => void;
  multiSelect?: MultiSelect;
}) {
  const pick = (item: LibraryItem) => {
    onSelect?.(item);
    onOpenChange(false);
  };
  const title = multiSelect ? 'Select Images' : kind === 'image' ? 'Select an Image' : 'Select a Video';
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm data-[state=open]:animate-[fade-in_150ms_ease-out]" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-5xl -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-zinc-800 bg-zinc-900 shadow-2xl shadow-black/60 outline-none">
          <Dialog.Title className="sr-only">{title}</Dialog.Title>
          <Dialog.Description className="sr-only">
            {multiSelect ? 'Check the images to use, then choose Done.' : `Click one of your ${kind}s to use it.`}
          </Dialog.Description>
          <Dialog.Close
            className="absolute top-3 right-3 z-10 rounded-lg p-2 text-zinc-400 transition hover:bg-zinc-800 hover:text-white"
            aria-label="Close"
          >
            <X className="size-5" aria-hidden="true" />
          </Dialog.Close>
          {/* Capped height: the grid windows against this scroller, not the page. */}
          <div className={`scroll-thin overflow-y-auto p-4 sm:p-6 ${multiSelect ? 'max-h-[calc(100dvh-6rem)]' : 'max-h-[calc(100dvh-2rem)]'}`}>
            <Suspense fallback={<InlineLoader />}>
              {multiSelect ? (
                <ImageGallery multiSelect={multiSelect} />
              ) : kind === 'image' ? (
                <ImageGallery selectionMode onSelect={pick} />
              ) : (
                <VideoGallery selectionMode onSelect={pick} />
              )}
            </Suspense>
          </div>
          {multiSelect && (
            <div className="flex items-center justify-between gap-3 border-t border-zinc-800 px-4 py-3 sm:px-6">
              <span className="text-sm text-zinc-300" aria-live="polite">
                {multiSelect.selected.size} selected
              </span>
              <Dialog.Close className="btn btn-primary btn-sm">Done</Dialog.Close>
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
