import { useCallback } from 'react';
import type { FormValues, ToolForm } from '../../../shared/tool-form.js';
import { FormFields } from '../tools/form/FormFields';

const noSlots = {};
const noSubmit = () => {};

/** The settings a batch applies to every image: the tool's declared batch fields, with the same limits as its screen. */
export function BatchSettings({ form, values, onChange, local }: { form: ToolForm; values: FormValues; onChange: (next: FormValues) => void; local: boolean }) {
  const update = useCallback((key: string, next: (value: unknown) => unknown) => onChange({ ...values, [key]: next(values[key]) }), [values, onChange]);
  const set = useCallback((key: string, value: unknown) => onChange({ ...values, [key]: value }), [values, onChange]);
  return (
    <div className="space-y-5">
      <FormFields fields={form.batch ?? []} ctx={{ values, set, update, local, submit: noSubmit, sizeProblem: null, slots: noSlots }} />
    </div>
  );
}
