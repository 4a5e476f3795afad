import { useEffect, useId, useMemo, useState } from 'react';
import { Check, Plus, Wand2 } from 'lucide-react';
import { PROMPT_MAX, toolValidationError } from '../../../../shared/tools.js';
// The local editor's own parser (pure, no Node APIs): the form shows what it will do before anything is charged.
import { parseEditCommands, validateEditPrompt } from '../../../../shared/edit-commands.js';
import type { DashboardViewProps } from '../../dashboard/view-ids';
import { useToolProvider } from '../shared/access';
import { AdvancedSettings, FieldHint, SwitchField } from '../shared/fields';
import { ImageResult } from '../shared/results';
import { SourceField, type SourceValue } from '../shared/SourceField';
import { FormPanel, RunBar, ToolScreen } from '../shared/ToolScreen';
import { useToolView } from '../shared/useToolView';

const ENDPOINT = 'fal-image-editor';

/** Commands the local editor understands (see server/providers/ai/local/edit-commands.ts). */
export const EDIT_COMMAND_CHIPS = [
  'rotate 90',
  'make it brighter',
  'black and white',
  'crop to square',
  'blur',
  'add text "Hello"',
  'resize to 50%',
  'flip horizontal',
  'sepia',
  'more contrast',
  'warmer',
  'sharpen',
  'add a 10px black border',
];

interface EditorForm {
  source: SourceValue | null;
  prompt: string;
  safety: boolean;
}

const DEFAULTS: EditorForm = { source: null, prompt: '', safety: false };

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

  const body = { image_url: form.source?.ref ?? '', prompt: form.prompt, enable_safety_checker: form.safety };
  const parsed = useMemo(() => (local && form.prompt.trim() ? parseEditCommands(form.prompt) : null), [local, form.prompt]);
  const commandProblem = local && form.prompt.trim() ? validateEditPrompt(form.prompt) : null;
  const baseProblem = toolValidationError(ENDPOINT, body);
  const validation = baseProblem ?? commandProblem;
  // While typing ('rot...'), wait for a pause before calling the description unclear.
  const shownCommandProblem = useDebounced(commandProblem, 700);

  const submit = () => submitIfValid(body, validation);

  return (
    <ToolScreen
      endpoint={ENDPOINT}
      icon={Wand2}
      accent="fuchsia"
      description={
        local
          ? 'Edit your image by describing the changes as commands: rotate, crop, resize, colours, light, effects and text.'
          : 'Edit your image by describing the changes you want in plain words.'
      }
      run={run}
      access={access}
      result={
        run.result && (
          <ImageResult
            endpoint={ENDPOINT}
            result={run.result}
            afterField="edited_url"
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
            placeholder={local ? 'e.g. rotate 90 and make it black and white' : 'e.g. make the sky a warm sunset'}
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
          {parsed && parsed.understood.length > 0 && !commandProblem && (
            <p className="mt-2 flex flex-wrap items-center gap-1.5 text-xs text-emerald-300" data-testid="understood-commands">
              <Check className="size-3.5" aria-hidden="true" />
              <span className="text-zinc-400">Will apply:</span>
              {parsed.understood.map((u, i) => (
                <span key={`${u}-${i}`} className="rounded-md bg-emerald-500/10 px-1.5 py-0.5 font-medium ring-1 ring-emerald-500/25">
                  {u}
                </span>
              ))}
            </p>
          )}
          {commandProblem && shownCommandProblem && <FieldHint tone="error">{shownCommandProblem}</FieldHint>}
          <div id={`${id}-examples`} className="mt-3">
            <p className="mb-2 text-xs font-medium text-zinc-400">
              {local ? 'Commands the editor understands (click to add):' : 'Examples (click to add):'}
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
          hint={baseProblem ?? (commandProblem ? 'Describe the edit with the commands above.' : null)}
          running={running}
          error={run.phase === 'error' ? run.error : null}
          refunded={run.refunded}
          cancelled={run.cancelled}
        />
      </FormPanel>
    </ToolScreen>
  );
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
