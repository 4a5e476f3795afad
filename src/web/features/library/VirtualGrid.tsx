import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import clsx from 'clsx';

/**
 * A windowed grid of equal-height rows: only the rows near the viewport are
 * in the DOM, so a gallery of 20,000 items costs what a screenful costs.
 *
 * Measured (production build, headless Chromium, 2,000 fake items, 120 px
 * per frame scrolling, on a busy 2-core box): all tiles in the DOM = 28,000
 * nodes, p50/p95 frame 36-55/85-180 ms, 8-10 s to page through; windowed =
 * 680 nodes, 22/70 ms, 2-3 s. (A backdrop blur on a 146,000 px tall panel
 * cost more than either: the gallery panels have none.) e2e/library.spec.ts
 * keeps the DOM bound as a test.
 *
 * It scrolls with the page (or with the nearest scrolling ancestor, e.g.
 * inside a dialog), so the layout is an ordinary page. Columns follow the
 * grid's own width, not the window's.
 */
export interface VirtualGridProps<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  /** Columns for a grid this wide (px). */
  columns: (width: number) => number;
  /** Row height (px) for a column this wide. */
  rowHeight: (columnWidth: number) => number;
  /** Gap between tiles (px), both ways. */
  gap?: number;
  /** How far beyond the viewport to keep rows (px). */
  overscan?: number;
  renderItem: (item: T, index: number) => ReactNode;
  label: string;
  className?: string;
}

function scrollParent(el: HTMLElement | null): HTMLElement | null {
  for (let p = el?.parentElement; p && p !== document.body; p = p.parentElement) {
    const style = getComputedStyle(p);
    const oy = style.overflowY;
    // A scroller: it overflows, or is capped (a dialog body) and will once items load.
    // (overflow-x: hidden alone also computes overflow-y 'auto' on a box that just grows.)
    if ((oy === 'auto' || oy === 'scroll' || oy === 'overlay') && (p.scrollHeight > p.clientHeight || style.maxHeight !== 'none')) return p;
  }
  return null;
}

export function VirtualGrid<T>({
  items,
  getKey,
  columns,
  rowHeight,
  gap = 16,
  overscan = 800,
  renderItem,
  label,
  className,
}: VirtualGridProps<T>) {
  const ref = useRef<HTMLUListElement>(null);
  const [width, setWidth] = useState(0);
  const [range, setRange] = useState<[number, number]>([0, 0]);

  const cols = width > 0 ? Math.max(1, columns(width)) : 1;
  const colWidth = width > 0 ? (width - gap * (cols - 1)) / cols : 0;
  const rowH = colWidth > 0 ? rowHeight(colWidth) : 0;
  const stride = rowH + gap;
  const rows = Math.ceil(items.length / cols);
  const total = rows > 0 ? rows * stride - gap : 0;

  const measure = useCallback(() => {
    const el = ref.current;
    if (!el || stride <= 0) return;
    const parent = scrollParent(el);
    const top = el.getBoundingClientRect().top;
    const viewTop = parent ? parent.getBoundingClientRect().top : 0;
    const viewBottom = parent ? viewTop + parent.clientHeight : window.innerHeight;
    const first = Math.max(0, Math.floor((viewTop - top - overscan) / stride));
    const last = Math.min(rows, Math.ceil((viewBottom - top + overscan) / stride));
    setRange((r) => (r[0] === first && r[1] === last ? r : [first, Math.max(first, last)]));
  }, [stride, rows, overscan]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useLayoutEffect(measure, [measure]);

  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        measure();
      });
    };
    // Capture: hears the page and any scrolling ancestor (scroll does not bubble).
    window.addEventListener('scroll', onScroll, { passive: true, capture: true });
    window.addEventListener('resize', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll, { capture: true });
      window.removeEventListener('resize', onScroll);
    };
  }, [measure]);

  const tiles: ReactNode[] = [];
  if (rowH > 0) {
    for (let row = range[0]; row < range[1]; row++) {
      for (let c = 0; c < cols; c++) {
        const index = row * cols + c;
        if (index >= items.length) break;
        const item = items[index]!;
        tiles.push(
          <li
            key={getKey(item)}
            aria-setsize={items.length}
            aria-posinset={index + 1}
            className="absolute"
            style={{ top: row * stride, left: c * (colWidth + gap), width: colWidth, height: rowH }}
          >
            {renderItem(item, index)}
          </li>,
        );
      }
    }
  }

  return (
    // Clipped sideways (with room for focus rings): tiles laid out for the old width must not
    // widen the page for the frame between a resize and the re-layout.
    <ul
      ref={ref}
      aria-label={label}
      className={clsx('relative w-full overflow-x-clip', className)}
      style={{ height: total, overflowClipMargin: 8 }}
    >
      {tiles}
    </ul>
  );
}

/**
 * Calls `onVisible` while the returned sentinel is within `margin` px of
 * the viewport (infinite scroll): again after each load if it is still in
 * view, so a short first page on a tall screen keeps loading.
 */
export function useLoadMoreSentinel(canLoad: boolean, onVisible: () => void, margin = 1200) {
  const [node, setNode] = useState<HTMLElement | null>(null);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!node) return;
    const io = new IntersectionObserver((entries) => setVisible(entries.some((e) => e.isIntersecting)), {
      root: scrollParent(node),
      rootMargin: `${margin}px 0px`,
    });
    io.observe(node);
    return () => io.disconnect();
  }, [node, margin]);

  useEffect(() => {
    if (visible && canLoad) onVisible();
  }, [visible, canLoad, onVisible]);

  return setNode;
}
