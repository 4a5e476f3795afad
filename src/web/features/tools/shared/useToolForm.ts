import { useCallback, useEffect, useRef, useState } from 'react';
import type { ToolRun } from './useToolRun';

/**
 * A tool form's values. After a reload brings a running job back, the form
 * is filled with that run's values (so 'Reuse' and the before image work).
 */
export function useToolForm<F extends object>(run: ToolRun<F>, defaults: F) {
  const [form, setForm] = useState<F>(defaults);
  const restored = useRef(false);
  useEffect(() => {
    if (run.reattached && run.form && !restored.current) {
      restored.current = true;
      setForm({ ...defaults, ...run.form });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [run.reattached, run.form]);
  const set = useCallback(<K extends keyof F>(key: K, value: F[K]) => setForm((f) => ({ ...f, [key]: value })), []);
  const resetForm = useCallback(() => setForm(defaults), [defaults]);
  return { form, setForm, set, resetForm };
}
