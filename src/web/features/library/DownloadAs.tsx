import { FORMAT_LABELS, OUTPUT_FORMATS, type OutputFormat } from '../../../shared/output.js';
import { downloadRoute } from './api';

/**
 * 'Download as JPEG' and the other formats: a copy converted as it downloads, never stored (the
 * plain Download is the stored original). JPEG has no transparency, so its copy is flattened on white.
 */
export const convertedHref = (itemId: string, format: OutputFormat) =>
  `${downloadRoute(itemId)}?format=${format}${format === 'jpeg' ? '&background=%23ffffff' : ''}`;

export function DownloadAs({ itemId, current, className }: { itemId: string; current?: string; className?: string }) {
  const formats = OUTPUT_FORMATS.filter((f) => `image/${f}` !== current);
  return (
    <div className={className ?? 'flex flex-wrap items-center gap-1.5 text-xs text-zinc-400'} data-testid="download-as">
      <span>Download as</span>
      {formats.map((f) => (
        <a
          key={f}
          href={convertedHref(itemId, f)}
          download
          aria-label={`Download as ${FORMAT_LABELS[f]}`}
          className="rounded-md border border-zinc-700 px-2 py-1 font-medium text-zinc-200 transition hover:border-fuchsia-400 hover:text-white"
        >
          {FORMAT_LABELS[f]}
        </a>
      ))}
    </div>
  );
}
