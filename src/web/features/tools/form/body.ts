import { batchForm, formBody, type FormValues, type ToolForm } from '../../../../shared/tool-form.js';
import { outputBody, type OutputForm } from '../shared/OutputSettings';
import { seedValue } from '../shared/seed';

const bodyRules = {
  seed: (text: string) => seedValue(text) ?? text,
  output: (value: unknown) => outputBody(value as OutputForm),
};

/** The request body a form's values make (what the run sends). */
export function toolBody(form: ToolForm, values: FormValues): Record<string, unknown> {
  return formBody(form, values, bodyRules);
}

/** What a batch applies to every image: the body its batch fields make, without the source (each image is one). */
export function batchSettings(form: ToolForm, values: FormValues): Record<string, unknown> {
  const { [form.source.key]: _source, ...settings } = toolBody(batchForm(form), values);
  return settings;
}
