import type { LibraryItem, MediaKind } from './library';

/**
 * Uploads into the media library: POST /api/library/uploads (multipart
 * field `file`, `?kind=` says which drop zone it came from so the server
 * refuses the other kind). XMLHttpRequest rather than fetch, because only
 * XHR reports upload progress. Same origin: the session cookie goes along.
 */

const MB = 1024 * 1024;

/** What the server can decode (its media sniffing), for the hint under a drop zone. */
export const UPLOAD_FORMATS: Record<MediaKind, string> = {
  image: 'JPEG, PNG, WebP, GIF or AVIF',
  video: 'MP4, MOV, WebM or MKV',
};

export type UploadFailure = 'too_large' | 'wrong_type' | 'server' | 'network' | 'aborted';

/** A refused or failed upload; `message` is what the user reads (requirements §8: 'Failed to upload image: ...'). */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly reason: UploadFailure,
    readonly status = 0,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

export const uploadFailedMessage = (kind: MediaKind, reason: string) => `Failed to upload ${kind}: ${reason}`;

/** A size limit as the server words it in its own refusals. */
export const mbLabel = (bytes: number) => `${+(bytes / MB).toFixed(2)} MB`;

/**
 * The checks the browser can make before sending a byte, worded like the
 * server's own refusals. Null when the file may be sent. The size limit is
 * the operator's (the library counts carry it); until it is known the server
 * alone says a file is too large.
 */
export function checkUploadFile(file: File, kind: MediaKind, maxBytes?: number): UploadError | null {
  const type = (file.type || '').toLowerCase();
  // An empty type (some systems) is left to the server, which decides by the bytes.
  if (type && (!type.startsWith(`${kind}/`) || type === 'image/svg+xml')) {
    return new UploadError(uploadFailedMessage(kind, 'Unsupported file type'), 'wrong_type', 415);
  }
  if (maxBytes !== undefined && file.size > maxBytes) {
    return new UploadError(uploadFailedMessage(kind, `File is too large (max ${mbLabel(maxBytes)})`), 'too_large', 413);
  }
  if (file.size === 0) return new UploadError(uploadFailedMessage(kind, 'The file is empty'), 'wrong_type', 400);
  return null;
}

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0..1 */
  fraction: number;
}

export interface UploadOptions {
  kind: MediaKind;
  /** The largest file the server takes for this kind, when known (checked before sending). */
  maxBytes?: number;
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
}

/** Uploads one file; resolves with the new library item, rejects with UploadError (or an AbortError). */
export function uploadFile(file: File, { kind, maxBytes, onProgress, signal }: UploadOptions): Promise<LibraryItem> {
  return new Promise<LibraryItem>((resolve, reject) => {
    const refused = checkUploadFile(file, kind, maxBytes);
    if (refused) return reject(refused);
    if (signal?.aborted) return reject(new DOMException('Upload cancelled', 'AbortError'));

    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);

    xhr.open('POST', `/api/library/uploads?kind=${kind}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      const total = e.lengthComputable ? e.total : file.size;
      onProgress?.({ loaded: e.loaded, total, fraction: total ? Math.min(1, e.loaded / total) : 0 });
    };
    xhr.onload = () => {
      done();
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body && typeof body === 'object') {
        resolve(body as LibraryItem);
        return;
      }
      const obj = (body && typeof body === 'object' ? body : {}) as { error?: unknown; code?: unknown };
      const serverText = typeof obj.error === 'string' && obj.error ? obj.error : null;
      reject(
        new UploadError(
          serverText ?? uploadFailedMessage(kind, `the server answered ${xhr.status || 'nothing'}${xhr.statusText ? ` (${xhr.statusText})` : ''}`),
          xhr.status === 413 ? 'too_large' : xhr.status === 415 ? 'wrong_type' : 'server',
          xhr.status,
          typeof obj.code === 'string' ? obj.code : undefined,
        ),
      );
    };
    xhr.onerror = () => {
      done();
      reject(new UploadError(uploadFailedMessage(kind, 'the connection was lost. Check your connection and try again.'), 'network'));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(new DOMException('Upload cancelled', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

export const isAbortError = (err: unknown) => err instanceof DOMException && err.name === 'AbortError';
