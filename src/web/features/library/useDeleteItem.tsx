import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { errorMessage } from '../../lib/api';
import { deleteLibraryItem, libraryKeys, removeItem, type LibraryItem } from './api';

/**
 * SPEC §4: deleting a library item, one at a time, with a spinner on that
 * item. Asks first; the server removes the row, the file and its thumbnail.
 */
export function useDeleteItem() {
  const qc = useQueryClient();
  const [asking, setAsking] = useState<LibraryItem | null>(null);
  const [deletingId, setDeletingId] = useState<string | null>(null);

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
    }
  }, [asking, deletingId, qc]);

  const noun = asking?.kind === 'video' ? 'video' : 'image';
  const dialog = (
    <Modal
      open={!!asking}
      onOpenChange={(open) => !open && setAsking(null)}
      title={`Delete this ${noun}?`}
      description={
        <>
          <span className="font-medium break-all text-zinc-200">{asking?.original_name}</span> will be removed from your library, file
          and thumbnail included. This cannot be undone.
        </>
      }
      widthClass="max-w-md"
    >
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => setAsking(null)}>
          Cancel
        </Button>
        <Button
          variant="ghost"
          className="bg-red-600 text-white shadow-lg shadow-red-950/40 hover:bg-red-500 hover:text-white"
          onClick={() => void confirm()}
        >
          <Trash2 className="size-4" aria-hidden="true" /> Delete
        </Button>
      </div>
    </Modal>
  );

  return { request, deletingId, busy: deletingId !== null, dialog };
}
