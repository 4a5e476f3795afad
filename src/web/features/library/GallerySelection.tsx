import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { CheckSquare, Layers, X } from 'lucide-react';
import { BATCH_MAX_ITEMS, batchMessages } from '../../../shared/batch.rules.js';
import { Button } from '../../components/Button';
import { viewPath } from '../dashboard/view-ids';
import { toBatchImage, type NewBatchState } from '../batch/batchImages';
import { isReady, type LibraryItem } from '../../lib/library';

/** Tiles as checkboxes: which ids are chosen, and how a tile toggles. */
export interface MultiSelect {
  selected: ReadonlySet<string>;
  onToggle: (item: LibraryItem) => void;
}

/**
 * My Images' 'Select' mode. The choice is kept by id outside the grid, so
 * tiles the virtual grid drops and re-creates while scrolling stay checked.
 */
export function useGallerySelection() {
  const [active, setActive] = useState(false);
  const [chosen, setChosen] = useState<Map<string, LibraryItem>>(() => new Map());
  const [full, setFull] = useState(false);

  const onToggle = useCallback((item: LibraryItem) => {
    if (!isReady(item)) return;
    setChosen((prev) => {
      const next = new Map(prev);
      if (next.has(item.id)) next.delete(item.id);
      else if (next.size >= BATCH_MAX_ITEMS) {
        setFull(true);
        return prev;
      } else next.set(item.id, item);
      setFull(false);
      return next;
    });
  }, []);

  const stop = useCallback(() => {
    setActive(false);
    setChosen(new Map());
    setFull(false);
  }, []);

  const selected = useMemo(() => new Set(chosen.keys()), [chosen]);
  return { active, start: () => setActive(true), stop, selected, onToggle, items: [...chosen.values()], full };
}

type GallerySelection = ReturnType<typeof useGallerySelection>;

/** The 'Select' toggle, and while selecting, a bar along the bottom: 'N selected' and 'Process in batch'. */
export function SelectionBar({ selection }: { selection: GallerySelection }) {
  const navigate = useNavigate();
  const count = selection.selected.size;

  const process = () => {
    const state: NewBatchState = { batchImages: selection.items.map(toBatchImage) };
    navigate(viewPath('batch'), { state });
  };

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-zinc-400">
          {selection.active ? 'Choose images with the checkboxes, then process them in one batch.' : 'Select several images to process them in one batch.'}
        </p>
        <Button
          variant="secondary"
          size="sm"
          aria-pressed={selection.active}
          onClick={selection.active ? selection.stop : selection.start}
        >
          {selection.active ? <X className="size-4" aria-hidden="true" /> : <CheckSquare className="size-4" aria-hidden="true" />}
          {selection.active ? 'Done selecting' : 'Select'}
        </Button>
      </div>
      {selection.active && (
        <div
          role="region"
          aria-label="Selection"
          className="fixed inset-x-3 bottom-3 z-30 mx-auto flex max-w-xl flex-wrap items-center justify-between gap-3 rounded-2xl border border-zinc-700 bg-zinc-900/95 px-4 py-3 shadow-2xl shadow-black/60"
        >
          <div className="min-w-0">
            <p className="text-sm font-semibold text-white" aria-live="polite" data-testid="selection-count">
              {count} selected
            </p>
            {selection.full && <p className="text-xs text-amber-300">{batchMessages.tooManyImages}</p>}
          </div>
          <Button size="sm" disabled={count === 0} onClick={process}>
            <Layers className="size-4" aria-hidden="true" /> Process in batch
          </Button>
        </div>
      )}
    </>
  );
}
