import type { ReactNode } from 'react';
import { UploadCloud } from 'lucide-react';

/** The 'Choose ...' button inside a drop zone: it opens the file dialog once, not also through the zone's own click. */
export function BrowseButton({ open, disabled, children }: { open: () => void; disabled?: boolean; children: ReactNode }) {
  return (
    <button
      type="button"
      className="btn btn-secondary btn-sm shrink-0"
      disabled={disabled}
      onClick={(e) => {
        e.stopPropagation();
        open();
      }}
    >
      <UploadCloud className="size-4" aria-hidden="true" />
      {children}
    </button>
  );
}
