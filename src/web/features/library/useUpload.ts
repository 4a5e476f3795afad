import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { libraryKeys, upsertItems, useUploadLimit } from './api';
import type { LibraryItem, MediaKind } from '../../lib/library';
import { isAbortError, uploadFailedMessage, uploadFile, UploadError } from '../../lib/upload';

export type UploadStatus = 'idle' | 'uploading' | 'processing' | 'done' | 'error';

export interface UploadState {
  status: UploadStatus;
  /** 0..1 of the bytes sent. */
  progress: number;
  loaded: number;
  total: number;
  fileName: string | null;
  error: UploadError | null;
  item: LibraryItem | null;
}

const IDLE: UploadState = { status: 'idle', progress: 0, loaded: 0, total: 0, fileName: null, error: null, item: null };

/**
 * Upload state for a screen: progress while bytes go up, 'processing' while
 * the server checks and thumbnails, then the item (put straight into every
 * cached gallery list) or the error. One upload at a time; unmounting cancels.
 */
export function useUpload(kind: MediaKind) {
  const qc = useQueryClient();
  const maxBytes = useUploadLimit(kind);
  const [state, setState] = useState<UploadState>(IDLE);
  const ctrl = useRef<AbortController | null>(null);

  useEffect(() => () => ctrl.current?.abort(), []);

  const upload = useCallback(
    async (file: File): Promise<LibraryItem | null> => {
      ctrl.current?.abort();
      const mine = new AbortController();
      ctrl.current = mine;
      setState({ ...IDLE, status: 'uploading', fileName: file.name, total: file.size });
      try {
        const item = await uploadFile(file, {
          kind,
          maxBytes,
          signal: mine.signal,
          onProgress: (p) => {
            if (ctrl.current !== mine) return;
            setState((s) => ({
              ...s,
              loaded: p.loaded,
              total: p.total,
              progress: p.fraction,
              // All bytes sent: the server is now checking, cleaning and thumbnailing.
              status: p.fraction >= 1 ? 'processing' : 'uploading',
            }));
          },
        });
        if (ctrl.current !== mine) return null;
        upsertItems(qc, [item]);
        void qc.invalidateQueries({ queryKey: libraryKeys.counts });
        setState({ ...IDLE, status: 'done', fileName: file.name, progress: 1, item });
        return item;
      } catch (err) {
        if (ctrl.current !== mine) return null;
        if (isAbortError(err)) {
          setState(IDLE);
          return null;
        }
        const error =
          err instanceof UploadError ? err : new UploadError(uploadFailedMessage(kind, (err as Error)?.message || 'unknown error'), 'server');
        setState({ ...IDLE, status: 'error', fileName: file.name, error });
        return null;
      } finally {
        if (ctrl.current === mine) ctrl.current = null;
      }
    },
    [kind, maxBytes, qc],
  );

  const cancel = useCallback(() => ctrl.current?.abort(), []);
  const reset = useCallback(() => {
    ctrl.current?.abort();
    setState(IDLE);
  }, []);
  /** Shows a refusal decided before uploading (a file the browser already knows is wrong). */
  const fail = useCallback((error: UploadError, fileName?: string) => {
    setState({ ...IDLE, status: 'error', error, fileName: fileName ?? null });
  }, []);

  return { ...state, busy: state.status === 'uploading' || state.status === 'processing', upload, cancel, reset, fail };
}
