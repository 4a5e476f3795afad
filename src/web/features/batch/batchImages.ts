import type { LibraryItem } from '../../lib/library';

/** An image chosen for a batch: what the form shows of it, and the id it sends. */
export interface BatchImage {
  id: string;
  name: string;
  thumbnailUrl: string | null;
  /** Its size, when known: a target size is checked against it before the batch runs. */
  width?: number;
  height?: number;
}

export const toBatchImage = (item: LibraryItem): BatchImage => ({
  id: item.id,
  name: item.original_name,
  thumbnailUrl: item.thumbnail_url ?? null,
  ...(item.width && item.height ? { width: item.width, height: item.height } : {}),
});

/** History state of /dashboard/batch when opened from My Images with images already chosen. */
export interface NewBatchState {
  batchImages?: BatchImage[];
}
