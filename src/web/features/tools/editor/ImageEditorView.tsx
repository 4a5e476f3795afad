import { useId } from 'react';
import { Plus, Wand2 } from 'lucide-react';
import { PROMPT_MAX, toolValidationError } from '../../../../shared/tools.js';
import type { DashboardViewProps } from '../../dashboard/view-ids';
import { useToolProvider } from '../shared/access';
import { AdvancedSettings, SwitchField } from '../shared/fields';
import { ImageResult } from '../shared/results';
import { SourceField, type SourceValue } from '../shared/SourceField';
import { FormPanel, RunBar, ToolScreen } from '../shared/ToolScreen';
import { useToolView } from '../shared/useToolView';
import { OUTPUT_DEFAULTS, OutputSettings, outputBody, outputSizeProblem, type OutputForm } from '../shared/OutputSettings';
import { EditInterpretationView, useEditInterpretation } from './EditInterpretation';

const ENDPOINT = 'fal-image-editor';

/** Requests the local editor understands, in plain words (see shared/edit-language). */
export const EDIT_COMMAND_CHIPS = [
  'a bit brighter',
  'blur the background',
  'remove the background',
  'vintage look',
  'make the sky more dramatic',
  'black and white except the subject',
  'crop to 16:9',
  'straighten',
  'add a vignette',
  'pencil sketch',
  'warmer',
  'add text "Hello"',
];

interface EditorForm {
  source: SourceValue | null;
  prompt: string;
  safety: boolean;
  output: OutputForm;
}

const DEFAULTS: EditorForm = { source: null, prompt: '', safety: false, output: OUTPUT_DEFAULTS };

function appendCommand(prompt: string, command: string): string {
  const p = prompt.trimEnd();
  if (!p) return command;
  return /[,;.]$/.test(p) ? `${p} ${command}` : `${p}, ${command}`;
}

/** requirements §2 AI Image Editor: image + description of the changes; Advanced: safety checker (default off). */
export default function ImageEditorView({ openView }: DashboardViewProps) {
  const id = useId();
  const { run, access, form, set, setForm, submitIfValid, startNew, running } = useToolView<EditorForm>(ENDPOINT, DEFAULTS);
  const provider = useToolProvider(ENDPOINT);
  const local = provider !== 'fal';

  const output = outputBody(form.output);
  const body = { image_url: form.source?.ref ?? '', prompt: form.prompt, enable_safety_checker: form.safety, ...(output ? { output } : {}) };
  // How the server's editor reads the request (the same reading the run makes before charging).
  const { reading, pending } = useEditInterpretation(form.prompt);
  const refused = reading && reading.status !== 'ready' && reading.status !== 'cloud' && reading.status !== 'empty' ? reading.message : null;
  const baseProblem = toolValidationError(ENDPOINT, body);
  const sizeProblem = outputSizeProblem(ENDPOINT, output, form.source);
  const validation = baseProblem ?? refused ?? sizeProblem;

  const submit = () => submitIfValid(body, validation);

  return (
    <ToolScreen
      endpoint={ENDPOINT}
      icon={Wand2}
      accent="fuchsia"
      description={
        local
          ? 'Edit your image by describing the changes in your own words: light and colour, looks like vintage or film, framing, and changes to the background, sky or face.'
          : 'Edit your image by describing the changes you want in plain words.'
      }
      run={run}
      access={access}
      result={
        run.result && (
          <ImageResult
            endpoint={ENDPOINT}
            result={run.result}
            beforeFallback={form.source?.mediaUrl ?? form.source?.previewUrl}
            icon={Wand2}
            openView={openView}
            onNew={startNew}
          />
        )
      }
    >
      <FormPanel onSubmit={submit} source={<SourceField kind="image" label="Image" value={form.source} onChange={(v) => set('source', v)} defaultTab="upload" disabled={running} />}>
        <div>
          <label htmlFor={`${id}-prompt`} className="field-label">
            Describe what changes you want to make
          </label>
          <textarea
            id={`${id}-prompt`}
            className="input min-h-28 resize-y leading-relaxed"
            placeholder={local ? 'e.g. a bit brighter, blur the background and crop to 16:9' : 'e.g. make the sky a warm sunset'}
            maxLength={PROMPT_MAX}
            value={form.prompt}
            onChange={(e) => set('prompt', e.target.value)}
            onKeyDown={(e) => {
              // Ctrl/Cmd + Enter runs the edit.
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                submit();
              }
            }}
            aria-describedby={`${id}-examples`}
          />
          <EditInterpretationView reading={reading} pending={pending} onSuggestion={(text) => set('prompt', text)} />
          <div id={`${id}-examples`} role="group" aria-labelledby={`${id}-examples-title`} className="mt-3">
            <p id={`${id}-examples-title`} className="mb-2 text-xs font-medium text-zinc-400">
              Examples (click to add):
            </p>
            <div className="flex flex-wrap gap-1.5">
              {EDIT_COMMAND_CHIPS.map((c) => (
                <button
                  key={c}
                  type="button"
                  onClick={() => setForm((f) => ({ ...f, prompt: appendCommand(f.prompt, c) }))}
                  className="inline-flex items-center gap-1 rounded-full border border-zinc-700 bg-zinc-800/60 px-2.5 py-1 text-xs text-zinc-300 transition hover:border-fuchsia-500/60 hover:bg-fuchsia-500/10 hover:text-white"
                >
                  <Plus className="size-3" aria-hidden="true" />
                  {c}
                </button>
              ))}
            </div>
          </div>
        </div>
        <OutputSettings value={form.output} onChange={(v) => set('output', v)} problem={sizeProblem} />
        <AdvancedSettings>
          <SwitchField
            label="Safety checker"
            description="Refuse results flagged as unsafe."
            checked={form.safety}
            onChange={(v) => set('safety', v)}
          />
        </AdvancedSettings>
        <RunBar
          endpoint={ENDPOINT}
          verb="Apply Edit"
          icon={Wand2}
          access={access}
          validation={validation}
          hint={baseProblem ?? (refused ? 'Change the request: see above for what the editor can do.' : null)}
          running={running}
          error={run.phase === 'error' ? run.error : null}
          refunded={run.refunded}
          cancelled={run.cancelled}
        />
      </FormPanel>
    </ToolScreen>
  );
}
