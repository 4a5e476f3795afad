import type { LibraryItemDto, LibraryPageDto } from '../../shared/library.schema.js';

/**
 * The media library's types and item facts, shared by every screen that shows or picks items.
 * The types come from the shared zod contract, so a field the server drops fails the type check here.
 */
export type LibraryItem = LibraryItemDto;
export type LibraryPage = LibraryPageDto;
export type MediaKind = 'image' | 'video';
/** The gallery's groups: everything, AI results, or the user's own uploads. */
export type LibraryGroup = 'all' | 'generated' | 'uploaded';

/** requirements §4: a pending video has 'pending/' in its storage path (and no real URL yet). */
export function isPending(item: LibraryItem): boolean {
  if (item.status === 'pending') return true;
  return item.status !== 'failed' && item.storage_path.includes('pending/') && !item.url;
}

export const isFailed = (item: LibraryItem) => item.status === 'failed';

/** Whether the item can be shown, played, downloaded or picked. */
export const isReady = (item: LibraryItem) => !isPending(item) && !isFailed(item) && !!item.url;
