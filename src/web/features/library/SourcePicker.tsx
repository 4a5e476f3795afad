/**
 * SourcePicker: where a tool's input image or video comes from (requirements §2
 * "Image source picker with tabs URL, Upload, Gallery"; the video upscaler
 * uses the same tabs with Gallery first).
 *
 *   <SourcePicker kind="image" value={source} onChange={setSource} />
 *   <SourcePicker kind="video" value={source} onChange={setSource} />   // Gallery tab first
 *
 * Props
 *   kind        'image' | 'video'   what may be picked (upload zone, gallery items, URL preview)
 *   value       SourceValue | null  controlled: the current pick, or null for none
 *   onChange    (v: SourceValue | null) => void   a new pick, or null when the user clears it
 *   defaultTab? 'url' | 'upload' | 'gallery'   first tab shown; default 'upload' for images,
 *                                              'gallery' for videos
 *   disabled?   boolean             e.g. while a run is processing: nothing can be changed
 *   label?      string              accessible name of the picker (default 'Image source' / 'Video source')
 *   className?  string
 *
 * SourceValue
 *   ref        what the tool API takes as image_url / video_url: a library item id
 *              (Upload: the new item's id after the upload finished; Gallery: the chosen
 *              item's id) or an http(s) URL typed in the URL tab (checked to look like
 *              http(s); the server fetches it safely and checks the bytes).
 *   itemId?    set when ref is a library item (same value as ref)
 *   name?      a name to show (the item's original name, or the URL's last path segment)
 *   previewUrl? an IMAGE to show: the item's thumbnail (a video's poster), or the pasted
 *              URL itself for an image URL; absent for a pasted video URL
 *   mediaUrl?  the full file: the item's signed link, or the pasted URL (for a before/after
 *              slider or a video player). Signed links expire after about an hour.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Tabs } from 'radix-ui';
import { AlertCircle, Check, Film, Globe, ImageIcon, Images, Link2, Maximize2, RefreshCw, Upload, X } from 'lucide-react';
import clsx from 'clsx';
import { DropZone } from './DropZone';
import { MediaPickerDialog } from './MediaPickerDialog';
import { Button } from '../../components/Button';
import { Thumb } from './Thumb';
import { useLibraryList } from './api';
import { isReady, type LibraryItem, type MediaKind } from '../../lib/library';
import { formatDuration } from '../../lib/format';
import { call, client, describeError, errorMessage } from '../../lib/api';

export interface SourceValue {
  ref: string;
  previewUrl?: string;
  name?: string;
  itemId?: string;
  mediaUrl?: string;
  /** A library image's size, when known: the form checks a target size against it before the run. */
  width?: number;
  height?: number;
}

export type SourceTab = 'url' | 'upload' | 'gallery';

export interface SourcePickerProps {
  kind: MediaKind;
  value: SourceValue | null;
  onChange: (value: SourceValue | null) => void;
  defaultTab?: SourceTab;
  disabled?: boolean;
  label?: string;
  className?: string;
}

/** A library item as a picker value. */
export function sourceFromItem(item: LibraryItem): SourceValue {
  return {
    ref: item.id,
    itemId: item.id,
    name: item.original_name,
    previewUrl: item.thumbnail_url ?? (item.kind === 'image' ? item.url : undefined),
    mediaUrl: item.url,
    ...(item.width && item.height ? { width: item.width, height: item.height } : {}),
  };
}

/** The text as an http(s) URL, or null (only http and https; a host is required). */
export function parseHttpUrl(text: string): string | null {
  const t = text.trim();
  if (!t || /\s/.test(t)) return null;
  try {
    const u = new URL(t);
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) return null;
    return u.toString();
  } catch {
    return null;
  }
}

function nameFromUrl(url: string): string {
  try {
    const u = new URL(url);
    const last = decodeURIComponent(u.pathname.split('/').filter(Boolean).pop() ?? '');
    return last || u.hostname;
  } catch {
    return url;
  }
}

export function SourcePicker({ kind, value, onChange, defaultTab, disabled, label, className }: SourcePickerProps) {
  const [tab, setTab] = useState<SourceTab>(defaultTab ?? (kind === 'video' ? 'gallery' : 'upload'));
  // 'Change' shows the tabs again while the current pick stays until a new one replaces it.
  const [changing, setChanging] = useState(false);
  const name = label ?? (kind === 'image' ? 'Image source' : 'Video source');

  const pick = (v: SourceValue) => {
    setChanging(false);
    onChange(v);
  };

  if (value && !changing) {
    return (
      <SelectedSource
        kind={kind}
        value={value}
        disabled={disabled}
        label={name}
        className={className}
        onChangeClick={() => setChanging(true)}
        onClear={() => onChange(null)}
      />
    );
  }

  const tabs: Array<{ id: SourceTab; label: string; icon: typeof Link2 }> = [
    { id: 'url', label: 'URL', icon: Link2 },
    { id: 'upload', label: 'Upload', icon: Upload },
    { id: 'gallery', label: 'Gallery', icon: Images },
  ];

  return (
    <div className={clsx('min-w-0 rounded-2xl border border-zinc-800 bg-zinc-900/40 p-3 sm:p-4', className)} role="group" aria-label={name}>
      <Tabs.Root value={tab} onValueChange={(v) => setTab(v as SourceTab)}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Tabs.List
            aria-label={name}
            className="inline-flex rounded-xl border border-zinc-800 bg-zinc-950/60 p-1"
          >
            {tabs.map((t) => (
              <Tabs.Trigger
                key={t.id}
                value={t.id}
                disabled={disabled}
                className={clsx(
                  'inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium text-zinc-400 transition sm:px-3',
                  'hover:text-zinc-100 disabled:cursor-not-allowed disabled:opacity-50',
                  'data-[state=active]:bg-zinc-800 data-[state=active]:text-white data-[state=active]:shadow',
                )}
              >
                <t.icon className="size-4" aria-hidden="true" />
                {t.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {changing && value && (
            <Button variant="ghost" size="sm" onClick={() => setChanging(false)}>
              Cancel
            </Button>
          )}
        </div>

        <Tabs.Content value="url" className="mt-4 outline-none">
          <UrlTab kind={kind} disabled={disabled} onPick={pick} />
        </Tabs.Content>
        {/* Kept mounted: switching tabs must not cancel an upload in flight. */}
        <Tabs.Content value="upload" forceMount className="mt-4 outline-none data-[state=inactive]:hidden">
          <DropZone kind={kind} compact disabled={disabled} onUploaded={(item) => pick(sourceFromItem(item))} />
        </Tabs.Content>
        <Tabs.Content value="gallery" className="mt-4 outline-none">
          <GalleryTab kind={kind} disabled={disabled} selectedId={value?.itemId} onPick={pick} onUpload={() => setTab('upload')} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

function UrlTab({ kind, disabled, onPick }: { kind: MediaKind; disabled?: boolean; onPick: (v: SourceValue) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();

  const [checking, setChecking] = useState(false);

  // The server checks the URL now as a run would (address, reachability, type, size), so a refused
  // URL is explained here, before any charge, instead of failing the run.
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const url = parseHttpUrl(text);
    if (!url) {
      setError(`Enter a valid ${kind} URL starting with http:// or https://`);
      return;
    }
    setError(null);
    setChecking(true);
    try {
      await call(client.POST('/api/library/check-url', { body: { url, kind } }));
    } catch (err) {
      setError(errorMessage(err, 'This URL could not be checked. Try again.'));
      return;
    } finally {
      setChecking(false);
    }
    onPick({ ref: url, name: nameFromUrl(url), previewUrl: kind === 'image' ? url : undefined, mediaUrl: url });
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-2">
      <label htmlFor={inputId} className="field-label">
        {kind === 'image' ? 'Image URL' : 'Video URL'}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={inputId}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={kind === 'image' ? 'https://example.com/photo.jpg' : 'https://example.com/clip.mp4'}
          className="input min-w-0 flex-1"
          value={text}
          disabled={disabled}
          aria-invalid={!!error || undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError(null);
          }}
        />
        <Button type="submit" variant="secondary" disabled={disabled || !text.trim()} loading={checking}>
          {!checking && <Check className="size-4" aria-hidden="true" />} {checking ? 'Checking...' : 'Use URL'}
        </Button>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="flex items-center gap-1.5 text-sm text-red-300">
          <AlertCircle className="size-4 shrink-0" aria-hidden="true" /> {error}
        </p>
      ) : (
        <p className="text-xs text-zinc-400">
          A public link to {kind === 'image' ? 'an image' : 'a video'}. We fetch it and check it before the tool runs.
        </p>
      )}
    </form>
  );
}

function GalleryTab({
  kind,
  disabled,
  selectedId,
  onPick,
  onUpload,
}: {
  kind: MediaKind;
  disabled?: boolean;
  selectedId?: string;
  onPick: (v: SourceValue) => void;
  onUpload: () => void;
}) {
  const list = useLibraryList(kind, 'all');
  const [browsing, setBrowsing] = useState(false);
  const noun = kind === 'image' ? 'image' : 'video';

  if (list.isPending) {
    return (
      <div className="grid grid-cols-3 gap-2 sm:grid-cols-4" aria-busy="true" aria-label={`Loading your ${noun}s`}>
        {Array.from({ length: 8 }, (_, i) => (
          <div key={i} className="aspect-square animate-pulse rounded-xl bg-zinc-800/70" />
        ))}
      </div>
    );
  }
  if (list.isError) {
    return (
      <div role="alert" className="flex flex-col items-center gap-3 py-6 text-center text-sm text-red-200">
        <p>Could not load your {noun}s: {describeError(list.error)}</p>
        <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
          <RefreshCw className="size-4" aria-hidden="true" /> Try Again
        </Button>
      </div>
    );
  }
  if (!list.items.length) {
    const Icon = kind === 'image' ? ImageIcon : Film;
    return (
      <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-zinc-800 py-8 text-center">
        <Icon className="size-8 text-zinc-600" aria-hidden="true" />
        <p className="text-sm font-semibold text-zinc-200">{kind === 'image' ? 'No Images Yet' : 'No Videos Generated'}</p>
        <p className="text-xs text-zinc-400">Your {noun}s appear here once you upload or generate them.</p>
        <Button variant="secondary" size="sm" className="mt-2" onClick={onUpload} disabled={disabled}>
          <Upload className="size-4" aria-hidden="true" /> Upload {kind === 'image' ? 'an image' : 'a video'}
        </Button>
      </div>
    );
  }

  return (
    <div>
      <ul
        className={clsx(
          'scroll-thin grid max-h-80 gap-2 overflow-y-auto pr-1',
          kind === 'image' ? 'grid-cols-3 sm:grid-cols-4' : 'grid-cols-2 sm:grid-cols-3',
        )}
        aria-label={`Your ${noun}s`}
      >
        {list.items.map((item) => {
          const ready = isReady(item);
          const selected = item.id === selectedId;
          return (
            <li key={item.id}>
              <button
                type="button"
                disabled={disabled || !ready}
                aria-pressed={selected}
                // The name holds every word shown on the tile (the duration or the state), for speech input.
                aria-label={`${item.original_name}${
                  !ready ? (item.status === 'failed' ? ' (failed)' : ' (pending)') : kind === 'video' ? ` ${formatDuration(item.duration_seconds)}` : ''
                }`}
                title={item.original_name}
                onClick={() => onPick(sourceFromItem(item))}
                className={clsx(
                  'group relative block w-full overflow-hidden rounded-xl border bg-zinc-900 transition',
                  kind === 'image' ? 'aspect-square' : 'aspect-video',
                  selected ? 'border-fuchsia-400 ring-2 ring-fuchsia-500/50' : 'border-zinc-800 hover:border-zinc-500',
                  !ready && 'cursor-not-allowed opacity-50',
                )}
              >
                <Thumb item={item} className="size-full transition duration-200 group-hover:scale-[1.03]" />
                {kind === 'video' && ready && (
                  <span className="absolute right-1 bottom-1 rounded bg-black/75 px-1 py-0.5 text-[10px] font-semibold text-white tabular-nums">
                    {formatDuration(item.duration_seconds)}
                  </span>
                )}
                {!ready && (
                  <span className="absolute inset-x-1 bottom-1 truncate rounded bg-black/75 px-1 py-0.5 text-[10px] font-semibold text-amber-200">
                    {item.status === 'failed' ? 'FAILED' : 'PENDING'}
                  </span>
                )}
                {selected && (
                  <span className="absolute top-1 right-1 flex size-5 items-center justify-center rounded-full bg-fuchsia-500 text-white">
                    <Check className="size-3.5" aria-hidden="true" />
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
      <div className="mt-3 flex flex-wrap items-center justify-center gap-2">
        {list.hasNextPage && (
          <Button variant="secondary" size="sm" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            Load more
          </Button>
        )}
        <Button variant="ghost" size="sm" onClick={() => setBrowsing(true)} disabled={disabled}>
          <Maximize2 className="size-3.5" aria-hidden="true" /> Open full gallery
        </Button>
      </div>
      <MediaPickerDialog kind={kind} open={browsing} onOpenChange={setBrowsing} onSelect={(item) => onPick(sourceFromItem(item))} />
    </div>
  );
}

function SelectedSource({
  kind,
  value,
  disabled,
  label,
  className,
  onChangeClick,
  onClear,
}: {
  kind: MediaKind;
  value: SourceValue;
  disabled?: boolean;
  label: string;
  className?: string;
  onChangeClick: () => void;
  onClear: () => void;
}) {
  const fromUrl = !value.itemId;
  const [broken, setBroken] = useState(false);
  useEffect(() => setBroken(false), [value.previewUrl, value.mediaUrl]);
  const host = fromUrl ? safeHost(value.ref) : null;

  let preview;
  if (kind === 'video' && value.mediaUrl && !broken) {
    preview = (
      <video
        key={value.mediaUrl}
        src={value.mediaUrl}
        poster={value.previewUrl}
        controls
        playsInline
        preload="metadata"
        className="max-h-72 w-full bg-black object-contain"
        onError={() => setBroken(true)}
      />
    );
  } else if (value.previewUrl && !broken) {
    preview = (
      <img
        key={value.previewUrl}
        src={kind === 'image' && value.mediaUrl && !fromUrl ? value.mediaUrl : value.previewUrl}
        alt={value.name ? `Selected: ${value.name}` : 'Selected image'}
        className="max-h-72 w-full object-contain"
        decoding="async"
        onError={() => setBroken(true)}
      />
    );
  } else {
    const Icon = kind === 'image' ? ImageIcon : Film;
    preview = (
      <div className="flex h-40 flex-col items-center justify-center gap-2 text-zinc-400">
        <Icon className="size-8" aria-hidden="true" />
        <span className="text-xs">{fromUrl ? 'Preview not available for this link' : 'Preview not available'}</span>
      </div>
    );
  }

  return (
    <div className={clsx('min-w-0 overflow-hidden rounded-2xl border border-zinc-800 bg-zinc-900/40', className)} role="group" aria-label={label}>
      <div className="flex items-center justify-center bg-[repeating-conic-gradient(#27272a_0_25%,#1f1f23_0_50%)] bg-[length:16px_16px]">
        {preview}
      </div>
      <div className="flex flex-wrap items-center gap-3 border-t border-zinc-800 p-3">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-zinc-800 text-zinc-300">
          {fromUrl ? <Globe className="size-4" aria-hidden="true" /> : <Images className="size-4" aria-hidden="true" />}
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-zinc-100" title={value.name ?? value.ref} data-testid="source-name">
            {value.name ?? value.ref}
          </p>
          <p className="truncate text-xs text-zinc-400">{fromUrl ? `From URL${host ? ` · ${host}` : ''}` : 'From your library'}</p>
        </div>
        <div className="flex shrink-0 items-center gap-1">
          <Button variant="secondary" size="sm" onClick={onChangeClick} disabled={disabled}>
            Change
          </Button>
          <button
            type="button"
            onClick={onClear}
            disabled={disabled}
            aria-label={`Remove selected ${kind}`}
            className="rounded-lg p-1.5 text-zinc-400 transition hover:bg-zinc-800 hover:text-white disabled:opacity-50"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </div>
      </div>
    </div>
  );
}

function safeHost(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}
