import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AlertDialog } from 'radix-ui';
import { Loader2, Trash2 } from 'lucide-react';
import { toast } from '../../lib/toast';
import { Button } from '../../components/Button';
import { errorMessage } from '../../lib/api';
import { useRestoreFocus } from './restoreFocus';
import { deleteLibraryItem, libraryKeys, madeFrom, removeItem } from './api';
import type { LibraryItem } from '../../lib/library';
import { sharesKeys } from './SharedLinks';
import { useVersions } from './Versions';

/**
 * requirements §4: deleting a library item, one at a time, with a spinner on that
 * item. Asks first; the server removes the row, the file and its thumbnail.
 */
export function useDeleteItem() {
  const qc = useQueryClient();
  const [asking, setAsking] = useState<LibraryItem | null>(null);
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const focus = useRestoreFocus();

  const request = useCallback((item: LibraryItem) => setAsking(item), []);

  const confirm = useCallback(async () => {
    const item = asking;
    if (!item || deletingId) return;
    setAsking(null);
    setDeletingId(item.id);
    try {
      await deleteLibraryItem(item.id);
      removeItem(qc, item.id);
      toast.success(item.kind === 'video' ? 'Video deleted' : 'Image deleted');
    } catch (err) {
      // Already gone (another tab): it should not stay on screen either.
      if ((err as { status?: number })?.status === 404) removeItem(qc, item.id);
      else toast.error(errorMessage(err, `Failed to delete ${item.kind}`));
    } finally {
      setDeletingId(null);
      void qc.invalidateQueries({ queryKey: libraryKeys.counts });
      void qc.invalidateQueries({ queryKey: [...libraryKeys.root, 'versions'] });
      // Its share links ended with it.
      void qc.invalidateQueries({ queryKey: sharesKeys.all });
    }
  }, [asking, deletingId, qc]);

  const noun = asking?.kind === 'video' ? 'video' : 'image';
  // What happens to the versions made from it (decision 034): they stay, and the delete says so first.
  const versions = useVersions(asking);
  const kept = asking && versions.data ? madeFrom(versions.data, asking.id) : 0;
  const dialog = (
    <AlertDialog.Root open={!!asking} onOpenChange={(open) => !open && setAsking(null)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm data-[state=open]:animate-[fade-in_150ms_ease-out]" />
        <AlertDialog.Content
          {...focus}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-zinc-800 bg-zinc-900 p-6 shadow-2xl shadow-black/60 outline-none"
        >
          <div className="flex items-start gap-4">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-red-500/10 text-red-400 ring-1 ring-red-500/20">
              <Trash2 className="size-5" aria-hidden="true" />
            </span>
            <div className="min-w-0">
              <AlertDialog.Title className="text-lg font-bold text-white">{`Delete this ${noun}?`}</AlertDialog.Title>
              <AlertDialog.Description className="mt-1 text-sm text-zinc-400">
                <span className="font-medium break-all text-zinc-200">{asking?.original_name}</span> will be removed from your
                library, file and thumbnail included. This cannot be undone.
              </AlertDialog.Description>
              {kept > 0 && (
                <p className="mt-2 text-sm text-zinc-400" data-testid="delete-keeps-versions">
                  {`${kept} ${kept === 1 ? 'version' : 'versions'} made from it stay in your library.`}
                </p>
              )}
            </div>
          </div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary">Cancel</Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button
                variant="ghost"
                className="bg-red-600 text-white shadow-lg shadow-red-950/40 hover:bg-red-500 hover:text-white"
                onClick={() => void confirm()}
              >
                <Trash2 className="size-4" aria-hidden="true" /> Delete
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );

  return { request, deletingId, busy: deletingId !== null, dialog };
}

/** A tile's Delete button: a spinner on the item being deleted; `locked` while any item is. */
export function DeleteItemButton({
  item,
  deleting,
  locked,
  onDelete,
  title,
  className,
}: {
  item: LibraryItem;
  deleting: boolean;
  locked: boolean;
  onDelete: (item: LibraryItem) => void;
  title?: string;
  className: string;
}) {
  return (
    <button
      type="button"
      onClick={() => onDelete(item)}
      disabled={locked}
      aria-label={deleting ? `Deleting ${item.original_name}` : `Delete ${item.original_name}`}
      aria-busy={deleting || undefined}
      title={title}
      className={className}
    >
      {deleting ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Trash2 className="size-4" aria-hidden="true" />}
    </button>
  );
}
