import { RotateCw } from 'lucide-react';
import { Button } from './Button';

/** Reads a list again; spins while it does. The word shows from the small breakpoint unless `wide`. */
export function RefreshButton({ onRefresh, busy, label, wide = false, className }: { onRefresh: () => unknown; busy: boolean; label: string; wide?: boolean; className?: string }) {
  return (
    <Button variant="ghost" size="sm" onClick={() => void onRefresh()} loading={busy} aria-label={label} className={className}>
      {!busy && <RotateCw className="size-3.5" aria-hidden="true" />}
      <span className={wide ? undefined : 'hidden sm:inline'}>Refresh</span>
    </Button>
  );
}
