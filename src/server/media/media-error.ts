/**
 * Why a file was refused, in words a user can act on. The library service
 * maps the code to HTTP (415, 413, 422) and prefixes the spec's
 * 'Failed to upload image: ' / 'Failed to upload video: '.
 */
export type MediaErrorCode = 'unsupported' | 'too_large' | 'unprocessable';

export class MediaError extends Error {
  constructor(
    readonly code: MediaErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MediaError';
  }
}
