import { useSyncExternalStore } from 'react';
import { lazyModule } from './lazyModule';

/**
 * The one way to raise a toast. The toast library loads with the first toast, not with the page
 * (decision 032); App mounts its Toaster once it has arrived, and the Toaster shows the toasts
 * raised before it mounted.
 */
const sonner = lazyModule(() => import('sonner'));

export const toast = {
  success(message: string): void {
    void sonner.load().then((m) => m.toast.success(message));
  },
  error(message: string): void {
    void sonner.load().then((m) => m.toast.error(message));
  },
};

/** The Toaster, once the first toast has loaded it; null before. */
export function useToaster() {
  return useSyncExternalStore(sonner.subscribe, () => sonner.current()?.Toaster ?? null);
}
