import { useSyncExternalStore } from 'react';

type Sonner = typeof import('sonner');

/**
 * The one way to raise a toast. The toast library loads with the first toast, not with the page
 * (decision 032); App mounts its Toaster once it has arrived, and the Toaster shows the toasts
 * raised before it mounted.
 */
let sonner: Sonner | null = null;
let loading: Promise<Sonner> | null = null;
const listeners = new Set<() => void>();

function load(): Promise<Sonner> {
  loading ??= import('sonner').then((m) => {
    sonner = m;
    for (const listener of listeners) listener();
    return m;
  });
  return loading;
}

export const toast = {
  success(message: string): void {
    void load().then((m) => m.toast.success(message));
  },
  error(message: string): void {
    void load().then((m) => m.toast.error(message));
  },
};

/** The Toaster, once the first toast has loaded it; null before. */
export function useToaster(): Sonner['Toaster'] | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => sonner?.Toaster ?? null,
  );
}
