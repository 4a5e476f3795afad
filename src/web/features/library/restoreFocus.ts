import { useRef } from 'react';

/**
 * Radix dialogs opened without a Trigger send focus to <body> on close
 * (they focus their trigger, and there is none). These handlers remember
 * what had focus when the dialog opened (the tile) and give it back.
 */
export function useRestoreFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      const el = document.activeElement;
      opener.current = el instanceof HTMLElement && el !== document.body ? el : null;
    },
    onCloseAutoFocus: (e: Event) => {
      const el = opener.current;
      opener.current = null;
      // A tile scrolled out of the window (or deleted) is gone: leave focus to the browser then.
      if (el?.isConnected) {
        e.preventDefault();
        el.focus({ preventScroll: true });
      }
    },
  };
}
