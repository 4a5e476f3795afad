import { useCallback, useEffect, useRef, useState, type CSSProperties } from 'react';
import { ReactCompareSlider, ReactCompareSliderImage } from 'react-compare-slider';
import { ChevronsLeftRight, ImageOff } from 'lucide-react';
import clsx from 'clsx';

export type CompareBackground = 'checkered' | 'white' | 'black' | 'dark';

export const COMPARE_BACKGROUNDS: { id: CompareBackground; label: string }[] = [
  { id: 'checkered', label: 'Checkered' },
  { id: 'white', label: 'White' },
  { id: 'black', label: 'Black' },
  { id: 'dark', label: 'Dark' },
];

const BACKGROUND_STYLE: Record<CompareBackground, CSSProperties> = {
  checkered: {
    backgroundColor: '#d4d4d8',
    backgroundImage:
      'linear-gradient(45deg, #a1a1aa 25%, transparent 25%), linear-gradient(-45deg, #a1a1aa 25%, transparent 25%), linear-gradient(45deg, transparent 75%, #a1a1aa 75%), linear-gradient(-45deg, transparent 75%, #a1a1aa 75%)',
    backgroundSize: '20px 20px',
    backgroundPosition: '0 0, 0 10px, 10px -10px, -10px 0',
  },
  white: { backgroundColor: '#ffffff' },
  black: { backgroundColor: '#000000' },
  dark: { backgroundColor: '#18181b' },
};

export interface CompareSliderProps {
  beforeSrc: string;
  afterSrc: string;
  beforeLabel?: string;
  afterLabel?: string;
  /** Initial background; the toggle buttons change it (hide them with showBackgrounds={false}). */
  defaultBackground?: CompareBackground;
  showBackgrounds?: boolean;
  /** Reports the result image's natural size once it has loaded. */
  onAfterLoad?: (size: { width: number; height: number }) => void;
  className?: string;
}

/** Toggle buttons for the backgrounds behind transparent / letterboxed images (requirements §2). */
export function BackgroundPicker({ value, onChange }: { value: CompareBackground; onChange: (b: CompareBackground) => void }) {
  return (
    <div role="group" aria-label="Background" className="inline-flex flex-wrap items-center gap-1 rounded-xl border border-zinc-800 bg-zinc-950/60 p-1">
      {COMPARE_BACKGROUNDS.map((b) => (
        <button
          key={b.id}
          type="button"
          aria-pressed={value === b.id}
          onClick={() => onChange(b.id)}
          className={clsx(
            'flex items-center gap-1.5 rounded-lg px-2 py-1.5 text-xs font-medium transition sm:px-2.5',
            value === b.id ? 'bg-zinc-700 text-white' : 'text-zinc-400 hover:bg-zinc-800 hover:text-zinc-200',
          )}
        >
          <span aria-hidden="true" className="size-3 rounded-sm ring-1 ring-zinc-500" style={BACKGROUND_STYLE[b.id]} />
          {b.label}
        </button>
      ))}
    </div>
  );
}

/**
 * Before/after comparison (requirements §2): drag anywhere, or focus the handle and use
 * the arrow keys (the handle is a focusable role="slider" with its value).
 * If an image cannot be loaded, 'Image Loading Error' lists the failed URLs.
 */
export function CompareSlider({
  beforeSrc,
  afterSrc,
  beforeLabel = 'Before',
  afterLabel = 'After',
  defaultBackground = 'checkered',
  showBackgrounds = true,
  onAfterLoad,
  className,
}: CompareSliderProps) {
  const [background, setBackground] = useState<CompareBackground>(defaultBackground);
  const [failed, setFailed] = useState<string[]>([]);
  const [afterSize, setAfterSize] = useState<{ width: number; height: number } | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState(50);

  useEffect(() => {
    setFailed([]);
    setAfterSize(null);
  }, [beforeSrc, afterSrc]);

  const fail = useCallback((url: string) => setFailed((f) => (f.includes(url) ? f : [...f, url])), []);

  // The library keeps aria-valuenow in a ref; keep the handle's value and name current for assistive tech.
  useEffect(() => {
    const handle = rootRef.current?.querySelector<HTMLElement>('[data-rcs="handle-root"]');
    if (!handle) return;
    const p = Math.round(position);
    handle.setAttribute('aria-valuenow', String(p));
    handle.setAttribute('aria-valuetext', `${p}% ${beforeLabel.toLowerCase()}, ${100 - p}% ${afterLabel.toLowerCase()}`);
    handle.setAttribute('aria-label', `Compare ${beforeLabel.toLowerCase()} and ${afterLabel.toLowerCase()}: use the arrow keys or drag`);
  }, [position, beforeLabel, afterLabel, failed.length]);

  if (failed.length > 0) {
    return (
      <div role="alert" className={clsx('rounded-2xl border border-rose-500/40 bg-rose-500/10 p-5', className)}>
        <div className="flex items-center gap-2 text-rose-200">
          <ImageOff className="size-5" aria-hidden="true" />
          <h3 className="text-base font-semibold">Image Loading Error</h3>
        </div>
        <p className="mt-2 text-sm text-rose-100/80">These images could not be loaded:</p>
        <ul className="mt-2 space-y-1">
          {failed.map((url) => (
            <li key={url} className="font-mono text-xs break-all text-rose-100/90">
              {url}
            </li>
          ))}
        </ul>
      </div>
    );
  }

  // The frame takes the result's shape, as large as fits (at most 70% of the viewport's height).
  const ratio = afterSize && afterSize.height > 0 ? afterSize.width / afterSize.height : null;

  return (
    <div className={clsx('space-y-3', className)}>
      <div
        ref={rootRef}
        className="relative mx-auto overflow-hidden rounded-2xl border border-zinc-800"
        style={{ ...BACKGROUND_STYLE[background], maxWidth: ratio ? `min(100%, calc(70vh * ${ratio.toFixed(4)}))` : undefined }}
        data-testid="compare-slider"
      >
        <ReactCompareSlider
          onPositionChange={setPosition}
          keyboardIncrement="5%"
          style={{ width: '100%', aspectRatio: ratio ? String(ratio) : undefined, minHeight: ratio ? undefined : 240 }}
          handle={<CompareHandle />}
          itemOne={
            <ReactCompareSliderImage
              src={beforeSrc}
              alt={beforeLabel}
              style={{ objectFit: 'contain' }}
              onError={() => fail(beforeSrc)}
              draggable={false}
            />
          }
          itemTwo={
            <ReactCompareSliderImage
              src={afterSrc}
              alt={afterLabel}
              data-testid="result-image"
              style={{ objectFit: 'contain' }}
              onError={() => fail(afterSrc)}
              onLoad={(e) => {
                const img = e.currentTarget;
                const size = { width: img.naturalWidth, height: img.naturalHeight };
                setAfterSize(size);
                onAfterLoad?.(size);
              }}
              draggable={false}
            />
          }
        />
        <span className="pointer-events-none absolute top-3 left-3 z-10 rounded-md bg-black/60 px-2 py-1 text-[11px] font-semibold tracking-wide text-white uppercase">
          {beforeLabel}
        </span>
        <span className="pointer-events-none absolute top-3 right-3 z-10 rounded-md bg-gradient-to-r from-violet-600/90 to-fuchsia-600/90 px-2 py-1 text-[11px] font-semibold tracking-wide text-white uppercase">
          {afterLabel}
        </span>
      </div>
      {showBackgrounds && (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <BackgroundPicker value={background} onChange={setBackground} />
          <span className="hidden text-xs text-zinc-400 sm:inline">Drag the handle, or focus it and use the arrow keys</span>
        </div>
      )}
    </div>
  );
}

/** The handle's look: a line with a round grip; focus ring comes from the handle root. */
function CompareHandle() {
  return (
    <div className="pointer-events-none relative flex h-full w-0.5 flex-col items-center bg-white shadow-[0_0_6px_rgba(0,0,0,0.6)]">
      <span className="pointer-events-auto absolute top-1/2 flex size-11 -translate-y-1/2 items-center justify-center rounded-full border-2 border-white bg-black/40 text-white shadow-lg backdrop-blur-sm in-focus-visible:ring-4 in-focus-visible:ring-fuchsia-400 in-focus-visible:bg-fuchsia-600/70">
        <ChevronsLeftRight className="size-5" aria-hidden="true" />
      </span>
    </div>
  );
}
