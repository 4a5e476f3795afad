/**
 * A module loaded when first needed rather than with the page (decision 032): the first `load()`
 * starts the import, later calls share it, and a load that failed is tried again by the next call.
 * `current()` is the module once it has arrived, so a screen that already has it renders it at once.
 */
export interface LazyModule<T> {
  current(): T | null;
  load(): Promise<T>;
  /** Called once the module has arrived (for useSyncExternalStore). */
  subscribe(listener: () => void): () => void;
}

export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let module: T | null = null;
  let loading: Promise<T> | null = null;
  const listeners = new Set<() => void>();
  return {
    current: () => module,
    load() {
      loading ??= importer().then(
        (m) => {
          module = m;
          for (const listener of listeners) listener();
          return m;
        },
        (err: unknown) => {
          loading = null;
          throw err;
        },
      );
      return loading;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
