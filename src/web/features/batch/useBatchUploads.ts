import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { checkUploadFile, isAbortError, uploadFailedMessage, uploadFile, UploadError } from '../../lib/upload';
import { libraryKeys, upsertItems, useUploadLimit } from '../library/api';
import type { LibraryItem } from '../../lib/library';

export interface FileUpload {
  key: string;
  name: string;
  status: 'waiting' | 'uploading' | 'done' | 'error';
  /** 0..1 of the bytes sent. */
  progress: number;
  error: string | null;
}

/** Uploads sent at once: enough to keep the line busy, few enough that each shows progress. */
const PARALLEL = 3;

/**
 * Many files into the library at once (the same upload API as one file; the
 * server de-duplicates), each with its own progress and error. Every stored
 * file is handed to `onUploaded` as it lands.
 */
export function useBatchUploads(onUploaded: (item: LibraryItem) => void) {
  const qc = useQueryClient();
  const [uploads, setUploads] = useState<FileUpload[]>([]);
  const queue = useRef<Array<{ key: string; file: File }>>([]);
  const active = useRef(0);
  const ctrl = useRef(new AbortController());
  const onUploadedRef = useRef(onUploaded);
  onUploadedRef.current = onUploaded;
  // Read by the queue's callbacks, which outlive the render that made them.
  const maxBytes = useRef<number | undefined>(undefined);
  maxBytes.current = useUploadLimit('image');

  // A controller per mount: React's development double mount (and any real
  // remount) must not leave later uploads tied to an already aborted signal.
  useEffect(() => {
    const mine = new AbortController();
    ctrl.current = mine;
    return () => mine.abort();
  }, []);

  const patch = useCallback((key: string, change: Partial<FileUpload>) => {
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));
  }, []);

  const pump = useCallback(() => {
    while (active.current < PARALLEL && queue.current.length) {
      const next = queue.current.shift()!;
      active.current++;
      patch(next.key, { status: 'uploading' });
      uploadFile(next.file, {
        kind: 'image',
        maxBytes: maxBytes.current,
        signal: ctrl.current.signal,
        onProgress: (p) => patch(next.key, { progress: p.fraction }),
      })
        .then((item) => {
          upsertItems(qc, [item]);
          patch(next.key, { status: 'done', progress: 1 });
          onUploadedRef.current(item);
        })
        .catch((err: unknown) => {
          if (isAbortError(err)) return;
          const message = err instanceof UploadError ? err.message : uploadFailedMessage('image', (err as Error)?.message || 'unknown error');
          patch(next.key, { status: 'error', error: message });
        })
        .finally(() => {
          active.current--;
          if (!queue.current.length && active.current === 0) void qc.invalidateQueries({ queryKey: libraryKeys.counts });
          pump();
        });
    }
  }, [patch, qc]);

  const add = useCallback(
    (files: File[]) => {
      const added: FileUpload[] = files.map((file, i) => {
        const key = `${Date.now()}-${i}-${file.name}`;
        const refused = checkUploadFile(file, 'image', maxBytes.current);
        if (!refused) queue.current.push({ key, file });
        return { key, name: file.name, status: refused ? 'error' : 'waiting', progress: 0, error: refused?.message ?? null };
      });
      setUploads((list) => [...list, ...added]);
      pump();
    },
    [pump],
  );

  const dismissFinished = useCallback(() => setUploads((list) => list.filter((u) => u.status === 'waiting' || u.status === 'uploading')), []);

  return { uploads, add, dismissFinished, busy: uploads.some((u) => u.status === 'waiting' || u.status === 'uploading') };
}
