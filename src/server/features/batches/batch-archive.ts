import { ZipArchive } from 'archiver';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { safeDownloadName } from '../../media/download-name.js';

export interface ArchiveEntry {
  /** The name of the image the result was made from (null when it has gone). */
  sourceName: string | null;
  /** Opens the result's stored file when its turn comes; null when it cannot be read. */
  open(): Promise<{ stream: Readable; ext: string; createdAt: Date } | null>;
}

interface Log {
  warn: (obj: unknown, msg?: string) => void;
}

/** "photo.png" again becomes "photo (2).png": names in one archive are unique, ignoring case. */
export class UniqueNames {
  private readonly used = new Set<string>();

  take(name: string): string {
    const dot = name.lastIndexOf('.');
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const ext = dot > 0 ? name.slice(dot) : '';
    let candidate = name;
    for (let n = 2; this.used.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    this.used.add(candidate.toLowerCase());
    return candidate;
  }
}

/**
 * 'Download all' of a batch as a ZIP stream. Each result is read from
 * storage only when the archive is ready for it, one at a time, so memory
 * stays flat however many images the batch has.
 */
export function batchArchive(entries: ArchiveEntry[], log: Log): Readable {
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const names = new UniqueNames();
  const fill = async () => {
    for (const [i, entry] of entries.entries()) {
      let file;
      try {
        file = await entry.open();
      } catch (err) {
        file = null;
        log.warn({ err }, 'batch download: result unreadable');
      }
      // A result deleted or unreadable since must not sink the rest of the archive.
      if (!file) continue;
      const name = names.take(safeDownloadName(entry.sourceName ?? `image-${i + 1}`, file.ext));
      const added = once(zip, 'entry');
      // Images are compressed already: store them as they are.
      zip.append(file.stream, { name, store: true, date: file.createdAt });
      await added;
    }
    await zip.finalize();
  };
  fill().catch((err: Error) => zip.destroy(err));
  return zip;
}
