import { useId, useRef, useState } from 'react';
import { Tabs } from 'radix-ui';
import { Link2, Loader2, Upload, X } from 'lucide-react';
import clsx from 'clsx';
import { ApiError, api } from '../../../lib/api';

/**
 * The tool's input: what the tool API accepts as image_url / video_url (a
 * library item id or an http(s) URL), with what we know to show it.
 *
 * TEMPORARY minimal picker (URL + Upload) until components/SourcePicker.tsx
 * lands; the value shape is the SourcePicker's.
 */
export interface SourceValue {
  ref: string;
  previewUrl?: string;
  name?: string;
  itemId?: string;
}

export interface SourceFieldProps {
  kind: 'image' | 'video';
  value: SourceValue | null;
  onChange: (v: SourceValue | null) => void;
  defaultTab?: 'url' | 'upload' | 'gallery';
  label?: string;
}

export function SourceField({ kind, value, onChange, defaultTab = 'upload', label }: SourceFieldProps) {
  const id = useId();
  const [tab, setTab] = useState(defaultTab === 'gallery' ? 'url' : defaultTab);
  const [url, setUrl] = useState(value && !value.itemId ? value.ref : '');
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  async function upload(file: File | undefined) {
    if (!file) return;
    setError(null);
    setUploading(true);
    try {
      const form = new FormData();
      form.append('file', file);
      const item = await api<{ id: string; url?: string; original_name: string }>(`/api/library/uploads?kind=${kind}`, { method: 'POST', body: form });
      onChange({ ref: item.id, itemId: item.id, previewUrl: item.url, name: item.original_name });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : `Failed to upload ${kind}`);
    } finally {
      setUploading(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  }

  return (
    <div>
      {label && <p className="field-label">{label}</p>}
      {value && (value.itemId || tab === 'upload') ? (
        <div className="relative overflow-hidden rounded-xl border border-zinc-800 bg-zinc-950/60">
          {value.previewUrl &&
            (kind === 'image' ? (
              <img src={value.previewUrl} alt={value.name ?? 'Selected image'} className="mx-auto max-h-72 w-auto object-contain" />
            ) : (
              <video src={value.previewUrl} className="mx-auto max-h-72 w-auto" controls muted playsInline />
            ))}
          <div className="flex items-center justify-between gap-3 border-t border-zinc-800 px-3 py-2 text-sm">
            <span className="truncate text-zinc-300">{value.name ?? value.ref}</span>
            <button type="button" onClick={() => onChange(null)} className="btn btn-ghost btn-sm" aria-label={`Remove the selected ${kind}`}>
              <X className="size-3.5" aria-hidden="true" /> Remove
            </button>
          </div>
        </div>
      ) : (
        <Tabs.Root value={tab} onValueChange={(t) => setTab(t as typeof tab)}>
          <Tabs.List aria-label={`${kind === 'image' ? 'Image' : 'Video'} source`} className="mb-3 inline-flex rounded-xl border border-zinc-800 bg-zinc-950/60 p-1">
            {(['url', 'upload'] as const).map((t) => (
              <Tabs.Trigger
                key={t}
                value={t}
                className="flex items-center gap-1.5 rounded-lg px-3 py-1.5 text-sm font-medium text-zinc-400 transition data-[state=active]:bg-zinc-700 data-[state=active]:text-white"
              >
                {t === 'url' ? <Link2 className="size-4" aria-hidden="true" /> : <Upload className="size-4" aria-hidden="true" />}
                {t === 'url' ? 'URL' : 'Upload'}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="url">
            <label htmlFor={`${id}-url`} className="sr-only">
              {kind === 'image' ? 'Image URL' : 'Video URL'}
            </label>
            <input
              id={`${id}-url`}
              className="input"
              type="url"
              inputMode="url"
              placeholder={`https://example.com/${kind === 'image' ? 'photo.jpg' : 'clip.mp4'}`}
              value={url}
              onChange={(e) => {
                setUrl(e.target.value);
                const v = e.target.value.trim();
                onChange(v ? { ref: v, previewUrl: kind === 'image' ? v : undefined, name: v } : null);
              }}
            />
          </Tabs.Content>
          <Tabs.Content value="upload">
            <label
              className={clsx(
                'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed border-zinc-700 bg-zinc-950/40 px-4 py-10 text-center text-sm text-zinc-400 transition hover:border-fuchsia-500/60 hover:text-zinc-200',
                uploading && 'pointer-events-none opacity-70',
              )}
            >
              {uploading ? <Loader2 className="size-6 animate-spin text-fuchsia-300" aria-hidden="true" /> : <Upload className="size-6" aria-hidden="true" />}
              <span>{uploading ? 'Uploading...' : `Click to choose ${kind === 'image' ? 'an image' : 'a video'}`}</span>
              <input
                ref={fileRef}
                type="file"
                accept={kind === 'image' ? 'image/*' : 'video/*'}
                className="sr-only"
                onChange={(e) => void upload(e.target.files?.[0])}
              />
            </label>
          </Tabs.Content>
        </Tabs.Root>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-rose-300">
          {error}
        </p>
      )}
    </div>
  );
}
