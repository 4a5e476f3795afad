import { useDropzone } from 'react-dropzone';
import { AlertCircle, CheckCircle2, ImageUp, Loader2, UploadCloud } from 'lucide-react';
import clsx from 'clsx';
import { mbLabel, UPLOAD_FORMATS } from '../../lib/upload';
import { useUploadLimit } from '../library/api';
import { BrowseButton } from '../../components/BrowseButton';
import type { FileUpload } from './useBatchUploads';

/**
 * A drop zone that takes many images at once (the single-file DropZone keeps
 * its one-file rule for the tools), with each file's progress or error.
 */
export function MultiDropZone({
  uploads,
  onFiles,
  onDismiss,
  disabled,
}: {
  uploads: FileUpload[];
  onFiles: (files: File[]) => void;
  onDismiss: () => void;
  disabled?: boolean;
}) {
  const maxBytes = useUploadLimit('image');
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    onDrop: (accepted, rejected) => onFiles([...accepted, ...rejected.map((r) => r.file)]),
    accept: { 'image/*': [] },
    multiple: true,
    disabled,
    noKeyboard: true, // the 'Choose images' button is the keyboard path
    useFsAccessApi: false,
  });
  const finished = uploads.filter((u) => u.status === 'done' || u.status === 'error').length;

  return (
    <div className="space-y-3">
      <div
        {...getRootProps({
          'data-testid': 'batch-dropzone',
          className: clsx(
            'flex cursor-pointer flex-col items-center gap-3 rounded-2xl border-2 border-dashed px-4 py-5 text-center transition sm:flex-row sm:text-left',
            isDragActive ? 'border-fuchsia-400 bg-fuchsia-500/10' : 'border-zinc-700 bg-zinc-950/40 hover:border-zinc-500',
            disabled && 'pointer-events-none opacity-50',
          ),
        })}
      >
        <input {...getInputProps({ 'aria-label': 'Upload image files' })} />
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-gradient-to-br from-violet-500/15 to-fuchsia-500/15 text-fuchsia-300 ring-1 ring-fuchsia-500/25">
          {isDragActive ? <UploadCloud className="size-5" aria-hidden="true" /> : <ImageUp className="size-5" aria-hidden="true" />}
        </span>
        <div className="min-w-0 sm:flex-1">
          <p className="text-sm font-semibold text-zinc-100">
            {isDragActive ? 'Drop to upload your images' : 'Drag and drop many images here, or click to browse'}
          </p>
          <p className="mt-1 text-xs text-zinc-400">
            {UPLOAD_FORMATS.image}{maxBytes ? ` · up to ${mbLabel(maxBytes)} each` : ''} · already uploaded files are not stored twice
          </p>
        </div>
        <BrowseButton open={open} disabled={disabled}>
          Choose images
        </BrowseButton>
      </div>

      {uploads.length > 0 && (
        <div className="rounded-xl border border-zinc-800 bg-zinc-950/40 p-3">
          <div className="mb-2 flex items-center justify-between gap-2 text-xs text-zinc-400">
            <span role="status">
              {finished} of {uploads.length} uploads finished
            </span>
            {finished === uploads.length && (
              <button type="button" onClick={onDismiss} className="rounded-md px-2 py-1 font-medium text-zinc-300 hover:bg-zinc-800 hover:text-white">
                Clear list
              </button>
            )}
          </div>
          {/* Focusable: a list that scrolls must be reachable by keyboard. */}
          <ul className="scroll-thin max-h-48 space-y-2 overflow-y-auto pr-1" aria-label="Uploads" tabIndex={0}>
            {uploads.map((u) => (
              <li key={u.key} className="text-sm" data-testid="upload-row">
                <div className="flex items-center gap-2">
                  {u.status === 'done' ? (
                    <CheckCircle2 className="size-4 shrink-0 text-emerald-400" aria-hidden="true" />
                  ) : u.status === 'error' ? (
                    <AlertCircle className="size-4 shrink-0 text-red-400" aria-hidden="true" />
                  ) : (
                    <Loader2 className="size-4 shrink-0 animate-spin text-fuchsia-400" aria-hidden="true" />
                  )}
                  <span className="min-w-0 flex-1 truncate text-zinc-200">{u.name}</span>
                  <span className="shrink-0 text-xs text-zinc-400 tabular-nums">
                    {u.status === 'done' ? 'Uploaded' : u.status === 'error' ? 'Failed' : u.status === 'waiting' ? 'Waiting' : `${Math.round(u.progress * 100)}%`}
                  </span>
                </div>
                {u.status === 'uploading' && (
                  <div
                    className="mt-1 h-1.5 overflow-hidden rounded-full bg-zinc-800"
                    role="progressbar"
                    aria-label={`Uploading ${u.name}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={Math.round(u.progress * 100)}
                  >
                    <div className="h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500" style={{ width: `${Math.max(2, u.progress * 100)}%` }} />
                  </div>
                )}
                {u.error && <p className="mt-1 text-xs text-red-300">{u.error}</p>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
