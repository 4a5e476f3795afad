import { useEffect, useRef, useState, type ComponentType, type ReactNode, type RefObject } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Download, Film, Images, RotateCcw, Share2, Sparkles } from 'lucide-react';
import { CompareSlider } from '../../../components/CompareSlider';
import { downloadHref, downloadRoute, fetchLibraryItem, libraryKeys } from '../../library/api';
import type { LibraryItem } from '../../../lib/library';
import type { ViewId } from '../../dashboard/view-ids';
import type { ToolResult } from './answers';
import { DownloadAs } from '../../library/DownloadAs';
import { SharePanel } from '../../library/SharePanel';

/** GET /api/library/:id: the saved result (its signed links; the download keeps its name). */
function useLibraryItem(id: string | null | undefined) {
  return useQuery({
    queryKey: [...libraryKeys.root, 'item', id],
    queryFn: ({ signal }) => fetchLibraryItem(id!, signal),
    enabled: !!id,
    staleTime: 5 * 60_000,
  });
}

function resultDownload(result: ToolResult, item: LibraryItem | undefined, fallbackUrl: string | undefined): string | undefined {
  if (item) return downloadHref(item);
  if (result.library_item_id) return downloadRoute(result.library_item_id);
  return fallbackUrl;
}

/** The small details line: model, ENERGY used, then the tool's own (settings, scale, duration) and the prompt used. */
export function ResultDetails({ result }: { result: ToolResult }) {
  const items: { label: string; value: ReactNode }[] = [];
  if (result.model) items.push({ label: 'Model', value: result.model });
  items.push({ label: 'ENERGY used', value: result.energy_used === 0 ? 'FREE' : result.energy_used });
  items.push(...result.details);
  const prompt = result.prompt;
  return (
    <div className="space-y-2 text-xs text-zinc-400" data-testid="result-details">
      {items.length > 0 && (
        <dl className="flex flex-wrap gap-x-4 gap-y-1.5">
          {items.map((i) => (
            <div key={i.label} className="flex items-baseline gap-1.5">
              <dt className="text-zinc-400">{i.label}</dt>
              <dd className="font-medium text-zinc-200">{i.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {prompt && (
        <p className="break-words">
          <span className="text-zinc-400">Prompt used </span>
          <span className="text-zinc-300">"{prompt}"</span>
        </p>
      )}
    </div>
  );
}

/** The result panel comes into view (under the sticky header) and its heading takes focus for screen readers. */
function useRevealOnMount() {
  const panel = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const el = panel.current;
    if (!el) return;
    const top = el.getBoundingClientRect().top;
    if (top < 64 || top > window.innerHeight * 0.5) el.scrollIntoView({ block: 'start', behavior: 'smooth' });
    heading.current?.focus({ preventScroll: true });
  }, []);
  return { panel, heading };
}

function ResultHeader({ title, children, headingRef }: { title: string; children: ReactNode; headingRef: RefObject<HTMLHeadingElement | null> }) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <h3 ref={headingRef} tabIndex={-1} className="flex items-center gap-2 text-lg font-semibold text-white outline-none">
        <CheckCircle2 className="size-5 text-emerald-400" aria-hidden="true" />
        {title}
      </h3>
      <div className="flex flex-wrap gap-2">{children}</div>
    </div>
  );
}

function DownloadLink({ href, name }: { href: string | undefined; name?: string }) {
  if (!href) return null;
  return (
    <a href={href} download={name ?? ''} className="btn btn-primary btn-sm px-3.5 py-2 text-sm" data-testid="download-result">
      <Download className="size-4" aria-hidden="true" /> Download
    </a>
  );
}

/** 'Share' on a result: opens the same panel as the image details (a public link, with before/after for a result made from a library picture). */
function ShareButton({ item, open, onToggle }: { item: LibraryItem | undefined; open: boolean; onToggle: () => void }) {
  if (!item || item.status !== 'ready' || !item.url) return null;
  return (
    <button type="button" className="btn btn-secondary btn-sm px-3.5 py-2 text-sm" onClick={onToggle} aria-expanded={open} data-testid="share-result">
      <Share2 className="size-4" aria-hidden="true" /> Share
    </button>
  );
}

/** What both result screens share: the revealed panel, its heading, Download, Share, the new-run and gallery buttons, the details. */
function ResultPanel({ title, newRunLabel, result, item, file, newIcon: NewIcon, onNew, onReuse, gallery, openView, children }: {
  title: string;
  /** The new-run button's text ('New Upscale'). */
  newRunLabel: string;
  result: ToolResult;
  item: LibraryItem | undefined;
  /** The made file's link, for Download while the library item is loading. */
  file: string | undefined;
  newIcon: ComponentType<{ className?: string }>;
  onNew: () => void;
  /** Back to the form keeping the inputs (video results). */
  onReuse?: () => void;
  gallery: 'gallery' | 'video-gallery';
  openView: (id: ViewId) => void;
  children: ReactNode;
}) {
  const { panel, heading } = useRevealOnMount();
  const [sharing, setSharing] = useState(false);
  const GalleryIcon = gallery === 'gallery' ? Images : Film;
  return (
    <div ref={panel} className="panel scroll-mt-24 space-y-5 p-5 sm:p-6" data-testid="tool-result">
      <ResultHeader title={title} headingRef={heading}>
        <DownloadLink href={resultDownload(result, item, file)} name={item?.original_name} />
        <ShareButton item={item} open={sharing} onToggle={() => setSharing((v) => !v)} />
        <button type="button" className="btn btn-secondary btn-sm px-3.5 py-2 text-sm" onClick={onNew}>
          <NewIcon className="size-4" aria-hidden="true" /> {newRunLabel}
        </button>
        {onReuse && (
          <button type="button" className="btn btn-secondary btn-sm px-3.5 py-2 text-sm" onClick={onReuse}>
            <RotateCcw className="size-4" aria-hidden="true" /> Reuse
          </button>
        )}
        <button type="button" className="btn btn-ghost btn-sm px-3.5 py-2 text-sm" onClick={() => openView(gallery)}>
          <GalleryIcon className="size-4" aria-hidden="true" /> {gallery === 'gallery' ? 'My Images' : 'My Videos'}
        </button>
      </ResultHeader>
      {sharing && item && (
        <div className="max-w-xl">
          <SharePanel item={item} />
        </div>
      )}
      {children}
      <ResultDetails result={result} />
    </div>
  );
}

export interface ImageResultProps {
  newRunLabel: string;
  result: ToolResult;
  /** Shown when the answer links no source picture (e.g. the preview of the input). */
  beforeFallback?: string;
  onNew: () => void;
  openView: (id: ViewId) => void;
  icon?: ComponentType<{ className?: string }>;
}

/** requirements §2 image result: before/after slider with backgrounds, Download, the new-run button, details, My Images. */
export function ImageResult({ newRunLabel, result, beforeFallback, onNew, openView, icon = Sparkles }: ImageResultProps) {
  const item = useLibraryItem(result.library_item_id);
  const after = result.file || item.data?.url;
  const before = result.source || beforeFallback;
  return (
    <ResultPanel
      title="Your image is ready"
      {...{ newRunLabel, result, onNew, openView }}
      item={item.data}
      file={after}
      newIcon={icon}
      gallery="gallery"
    >
      {after && before ? (
        <CompareSlider beforeSrc={before} afterSrc={after} beforeLabel="Before" afterLabel="After" />
      ) : after ? (
        <img src={after} alt="Result" data-testid="result-image" className="mx-auto max-h-[70vh] rounded-2xl border border-zinc-800" />
      ) : null}
      {result.library_item_id && item.data && <DownloadAs itemId={result.library_item_id} current={item.data.content_type} />}
    </ResultPanel>
  );
}

export interface VideoResultProps {
  newRunLabel: string;
  result: ToolResult;
  onNew: () => void;
  /** Back to the form keeping the inputs. */
  onReuse: () => void;
  openView: (id: ViewId) => void;
}

/** requirements §2 video result: player, Download, 'New Video', 'Reuse', details, My Videos. */
export function VideoResult({ newRunLabel, result, onNew, onReuse, openView }: VideoResultProps) {
  const item = useLibraryItem(result.library_item_id);
  const src = result.file || item.data?.url;
  return (
    <ResultPanel title="Your video is ready" {...{ newRunLabel, result, onNew, onReuse, openView }} item={item.data} file={src} newIcon={Film} gallery="video-gallery">
      {src && (
        <div className="overflow-hidden rounded-2xl border border-zinc-800 bg-black">
          <video src={src} controls playsInline loop className="mx-auto max-h-[70vh] w-full" data-testid="result-video" />
        </div>
      )}
    </ResultPanel>
  );
}
