import { useCallback, useId, useState, type DragEvent } from 'react';
import { useDropzone, type DropEvent, type FileRejection } from 'react-dropzone';
import { AlertCircle, Film, ImageUp, Loader2, UploadCloud, X } from 'lucide-react';
import clsx from 'clsx';
import { BrowseButton } from '../../components/BrowseButton';
import { Notice } from '../../components/Notice';
import type { LibraryItem, MediaKind } from '../../lib/library';
import { checkUploadFile, mbLabel, UPLOAD_FORMATS } from '../../lib/upload';
import { useUpload } from './useUpload';
import { useUploadLimit } from './api';

/**
 * requirements §2 shared pieces: the image upload drop zone (images, 10 MB) and the
 * video upload drop zone (videos, 100 MB). Drag and drop, click, paste, or
 * the 'Choose ...' button (the keyboard path).
 *
 * requirements §5: only the first dropped file is used, and a dropped file that
 * fails the checks is silently ignored. A file picked on purpose (the file
 * dialog) that is refused says why: too large, wrong type, or the server's
 * reason. A file that was sent and refused by the server says why either way,
 * in the zone (never a toast): the user watched it upload.
 */
export interface DropZoneProps {
  kind: MediaKind;
  /** Called with the new library item once the upload is stored. */
  onUploaded?: (item: LibraryItem) => void;
  /** A shorter zone (inside the source picker). */
  compact?: boolean;
  disabled?: boolean;
  className?: string;
}

const MB = 1024 * 1024;

export function DropZone({ kind, onUploaded, compact, disabled, className }: DropZoneProps) {
  const up = useUpload(kind);
  const maxBytes = useUploadLimit(kind);
  const hintId = useId();
  const noun = kind === 'image' ? 'image' : 'video';
  const Icon = kind === 'image' ? ImageUp : Film;

  // How many drops this zone has handled, shown as data-drops: react-dropzone handles a drop
  // asynchronously, so this is what says a drop that was ignored has been seen (tests wait on it).
  const [drops, setDrops] = useState(0);

  const onDrop = useCallback(
    (accepted: File[], rejected: FileRejection[], event: DropEvent) => {
      setDrops((n) => n + 1);
      // With several files react-dropzone rejects them all ('too-many-files'); we take the first.
      const file = accepted[0] ?? rejected[0]?.file;
      if (!file || up.busy) return;
      const picked = !!event && 'type' in event && (event as Event).type === 'change';
      const refused = checkUploadFile(file, kind, maxBytes);
      if (refused) {
        if (picked) up.fail(refused, file.name);
        return; // a dropped or pasted file that fails is ignored (requirements §5)
      }
      void up.upload(file).then((item) => {
        if (item) onUploaded?.(item);
      });
    },
    [kind, maxBytes, onUploaded, up],
  );

  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    onDrop,
    accept: { [`${kind}/*`]: [] },
    multiple: false,
    disabled: disabled || up.busy,
    noKeyboard: true, // the 'Choose ...' button is the keyboard path (one tab stop, a real button)
    useFsAccessApi: false,
  });

  // The drag state follows the FIRST file only (the one a drop would use); react-dropzone's
  // own reject state would also flag a drag of several files, of which we take the first.
  const [dragType, setDragType] = useState('');
  const isDragReject = isDragActive && !!dragType && !dragType.startsWith(`${kind}/`);

  const pct = Math.round(up.progress * 100);
  const showError = up.status === 'error' && up.error;

  return (
    <div className={className}>
      <div
        {...getRootProps({
          'data-testid': `${kind}-dropzone`,
          'data-drops': drops,
          onDragEnter: (e: DragEvent<HTMLElement>) => setDragType(e.dataTransfer?.items?.[0]?.type ?? ''),
          'aria-describedby': hintId,
          className: clsx(
            'group relative flex flex-col items-center justify-center rounded-2xl border-2 border-dashed text-center transition',
            compact ? 'px-4 py-6' : 'px-5 py-6 sm:px-6',
            disabled && 'pointer-events-none opacity-50',
            isDragActive && !isDragReject && 'border-fuchsia-400 bg-fuchsia-500/10 ring-4 ring-fuchsia-500/15',
            isDragActive && isDragReject && 'border-amber-400/70 bg-amber-500/5',
            !isDragActive && 'border-zinc-700 bg-zinc-950/40 hover:border-zinc-500 hover:bg-zinc-900/60',
            up.busy ? 'cursor-default' : 'cursor-pointer',
          ),
        })}
      >
        <input {...getInputProps({ 'aria-label': `Upload ${noun} file` })} />

        {up.busy ? (
          <div className="w-full max-w-sm space-y-3" role="status" aria-live="polite">
            <div className="flex items-center justify-center gap-2 text-sm font-medium text-zinc-200">
              <Loader2 className="size-4 shrink-0 animate-spin text-fuchsia-400" aria-hidden="true" />
              <span className="truncate">
                {up.status === 'processing' ? `Processing ${noun}...` : `Uploading ${up.fileName ?? noun}...`}
              </span>
            </div>
            <div
              className="h-2 w-full overflow-hidden rounded-full bg-zinc-800"
              role="progressbar"
              aria-label={`Upload progress`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={pct}
            >
              <div
                className={clsx(
                  'h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500 transition-[width] duration-200',
                  up.status === 'processing' && 'animate-pulse',
                )}
                style={{ width: `${Math.max(2, pct)}%` }}
              />
            </div>
            <div className="flex items-center justify-between text-xs text-zinc-400">
              <span className="tabular-nums">
                {pct}%{up.total >= MB ? ` · ${(up.loaded / MB).toFixed(1)} of ${(up.total / MB).toFixed(1)} MB` : ''}
              </span>
              {up.status === 'uploading' && (
                <button
                  type="button"
                  onClick={(e) => {
                    e.stopPropagation();
                    up.cancel();
                  }}
                  className="rounded-md px-2 py-1 font-medium text-zinc-300 hover:bg-zinc-800 hover:text-white"
                >
                  Cancel
                </button>
              )}
            </div>
          </div>
        ) : (
          <div className={clsx('flex w-full flex-col items-center gap-3 text-center', !compact && 'sm:flex-row sm:gap-4 sm:text-left')}>
            <span
              className={clsx(
                'flex shrink-0 items-center justify-center rounded-xl ring-1 transition',
                compact ? 'size-10' : 'size-12',
                isDragActive && !isDragReject
                  ? 'bg-fuchsia-500/20 text-fuchsia-200 ring-fuchsia-400/50'
                  : 'bg-gradient-to-br from-violet-500/15 to-fuchsia-500/15 text-fuchsia-300 ring-fuchsia-500/25',
              )}
            >
              {isDragActive ? <UploadCloud className="size-5" aria-hidden="true" /> : <Icon className="size-5" aria-hidden="true" />}
            </span>
            <div className="min-w-0 sm:flex-1">
              <p className="text-sm font-semibold text-zinc-100">
                {isDragActive
                  ? isDragReject
                    ? `Only ${noun}s can be dropped here`
                    : `Drop to upload your ${noun}`
                  : (
                    <>
                      <span className="[@media(pointer:coarse)]:hidden">
                        Drag and drop {kind === 'image' ? 'an image' : 'a video'} here, or click to browse
                      </span>
                      <span className="hidden [@media(pointer:coarse)]:inline">Tap to choose {kind === 'image' ? 'an image' : 'a video'}</span>
                    </>
                  )}
              </p>
              <p id={hintId} className="mt-1 text-xs text-zinc-400">
                {UPLOAD_FORMATS[kind]}{maxBytes ? ` · up to ${mbLabel(maxBytes)}` : ''}
              </p>
            </div>
            <BrowseButton open={open} disabled={disabled}>
              {kind === 'image' ? 'Choose image' : 'Choose video'}
            </BrowseButton>
          </div>
        )}
      </div>

      {showError && (
        <Notice
          tone="error"
          icon={AlertCircle}
          className="mt-3"
          after={
            <button type="button" onClick={up.reset} aria-label="Dismiss" className="-m-1 rounded-md p-1 text-red-300 hover:bg-red-500/20 hover:text-white">
              <X className="size-4" aria-hidden="true" />
            </button>
          }
        >
          {up.error!.message}
          {up.fileName ? <span className="block truncate text-xs text-red-300/70">{up.fileName}</span> : null}
        </Notice>
      )}
    </div>
  );
}
