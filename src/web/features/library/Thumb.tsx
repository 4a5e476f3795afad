import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Film, ImageOff, ImageIcon } from 'lucide-react';
import clsx from 'clsx';
import { linksFresh, refreshItems } from './api';
import type { LibraryItem } from '../../lib/library';

// Items whose links we already asked for again (one re-read per item per page view).
const reread = new Set<string>();

/**
 * A library thumbnail (WebP for images, the poster for videos): never the
 * full-size file, lazy loaded and decoded off the main thread. A link that
 * expired while the page stayed open is re-read once for that item only.
 */
export function Thumb({ item, className, alt = '' }: { item: LibraryItem; className?: string; alt?: string }) {
  const qc = useQueryClient();
  const src = item.thumbnail_url;
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => setFailed(null), [src]);

  if (!src || failed === src) {
    const Icon = failed ? ImageOff : item.kind === 'video' ? Film : ImageIcon;
    return (
      <span className={clsx('flex items-center justify-center bg-zinc-800/80 text-zinc-500', className)}>
        <Icon className="size-7" aria-hidden="true" />
      </span>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      decoding="async"
      draggable={false}
      className={clsx('bg-zinc-800 object-cover', className)}
      onError={() => {
        setFailed(src);
        if (!linksFresh(item, 0) && !reread.has(item.id)) {
          reread.add(item.id);
          void refreshItems(qc, [item.id]).finally(() => setTimeout(() => reread.delete(item.id), 60_000));
        }
      }}
    />
  );
}
