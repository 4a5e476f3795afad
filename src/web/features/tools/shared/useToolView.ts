import { useCallback } from 'react';
import { useToolAccess } from './access';
import type { RunnableTool } from './answers';
import { useToolForm } from './useToolForm';
import { useToolRun } from './useToolRun';

/**
 * Everything a tool screen wires the same way: its run, what the user may
 * spend, the form values, sending a valid affordable request, and starting
 * over after a result.
 */
export function useToolView<F extends object>(tool: RunnableTool, defaults: F) {
  const run = useToolRun<F>(tool);
  const access = useToolAccess(tool.info.endpoint);
  const { form, set, setForm, resetForm } = useToolForm(run, defaults);

  /** The run button is disabled otherwise; Enter in a field must not get around that. */
  const submitIfValid = (body: Record<string, unknown>, validation: string | null) => {
    if (validation || !access.canAfford) return;
    run.submit(body, form);
  };

  const startNew = useCallback(() => {
    run.reset();
    resetForm();
  }, [run, resetForm]);

  return { run, access, form, set, setForm, resetForm, submitIfValid, startNew, running: run.phase === 'processing' };
}
