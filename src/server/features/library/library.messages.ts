import type { MediaKind } from '../../media/sniff.js';

/**
 * The library's user-facing words (requirements §8 upload errors), in one place.
 * Reasons are short and actionable ('File is too large (max 10 MB)').
 */
export const libraryMessages = {
  uploadFailed: (kind: MediaKind, reason: string) => `Failed to upload ${kind}: ${reason}`,
  saveFailed: (kind: MediaKind, reason: string) => `Failed to save ${kind} metadata: ${reason}`,
  notAuthenticated: 'User not authenticated',
  noFile: 'No file was sent',
  unsupported: 'Unsupported file type',
  nothingToRetry: 'Nothing to retry',
  retryUnavailable: 'Retry is not available right now',
  notReady: 'This item is not ready yet',
  convertImagesOnly: 'Only images can be downloaded in another format',
  linkInvalid: 'This link has expired or is not valid',
  storageUnavailable: 'storage is unavailable',
  databaseUnavailable: 'the database did not accept it',
} as const;
