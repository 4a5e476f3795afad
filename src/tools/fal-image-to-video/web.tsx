import { useId } from 'react';
import { Plus, Timer, Trash2 } from 'lucide-react';
import { LORA_TRANSFORMERS, estimatedVideoSeconds, formatVideoSeconds, imageToVideoRanges as RANGES } from './info.js';
import { SelectField, SliderField } from '../../web/features/tools/shared/fields';
import { toolContract } from '../../web/features/tools/shared/answers';
import type { ToolWebPart } from '../../web/features/tools/form/web-part';
import { schemas } from './schemas.js';
import type { LoraRow } from './form';

const MAX_LORAS = 3;

const newLora = (): LoraRow => ({ key: `lora-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, path: '', weight_name: '', scale: RANGES.loraScale.default, transformer: 'high' });

/** Up to three LoRA weights, each with its path, weight name, scale and transformer. */
function LoraList({ rows, change }: { rows: LoraRow[]; change: (next: (rows: LoraRow[]) => LoraRow[]) => void }) {
  const id = useId();
  const updateLora = (key: string, patch: Partial<LoraRow>) => change((all) => all.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  return (
    <fieldset className="space-y-3">
      <legend className="field-label">LoRA weights</legend>
      {rows.length === 0 && <p className="text-xs text-zinc-400">No LoRA weights. Entries without a path are not sent.</p>}
      {rows.map((l, i) => (
        <div key={l.key} className="space-y-3 rounded-xl border border-zinc-800 bg-zinc-950/50 p-3" data-testid="lora-entry">
          <div className="flex items-center justify-between">
            <span className="text-xs font-semibold text-zinc-400">LoRA {i + 1}</span>
            <button
              type="button"
              className="btn btn-ghost btn-sm text-zinc-400 hover:text-rose-300"
              onClick={() => change((all) => all.filter((x) => x.key !== l.key))}
              aria-label={`Remove LoRA ${i + 1}`}
            >
              <Trash2 className="size-3.5" aria-hidden="true" /> Remove
            </button>
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <div>
              <label htmlFor={`${id}-lp-${l.key}`} className="field-label">
                Path
              </label>
              <input
                id={`${id}-lp-${l.key}`}
                className="input py-2"
                placeholder="https://.../lora.safetensors"
                value={l.path}
                onChange={(e) => updateLora(l.key, { path: e.target.value })}
              />
            </div>
            <div>
              <label htmlFor={`${id}-lw-${l.key}`} className="field-label">
                Weight name <span className="font-normal text-zinc-400">(optional)</span>
              </label>
              <input id={`${id}-lw-${l.key}`} className="input py-2" value={l.weight_name} onChange={(e) => updateLora(l.key, { weight_name: e.target.value })} />
            </div>
          </div>
          <div className="grid items-end gap-3 sm:grid-cols-2">
            <SliderField label="Scale" value={l.scale} onChange={(v) => updateLora(l.key, { scale: v })} {...RANGES.loraScale} format={(v) => v.toFixed(1)} />
            <SelectField
              compact
              label="Transformer"
              value={l.transformer}
              onChange={(v) => updateLora(l.key, { transformer: v })}
              options={LORA_TRANSFORMERS.map((t) => ({ value: t, label: t[0].toUpperCase() + t.slice(1) }))}
            />
          </div>
        </div>
      ))}
      {rows.length < MAX_LORAS && (
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => change((all) => [...all, newLora()])}>
          <Plus className="size-3.5" aria-hidden="true" /> Add LoRA
        </button>
      )}
    </fieldset>
  );
}

/** Image to video's own pieces: its answer (a video and its length, no source link), the length the video will have, the LoRA list, and the length in the overlay. */
const web: ToolWebPart = {
  contract: toolContract(schemas, (a) => ({ file: a.video_url, prompt: a.prompt_used, details: [{ label: 'Duration', value: formatVideoSeconds(a.duration_seconds) }] })),
  useParts: ({ values, update, run }) => {
    const seconds = estimatedVideoSeconds(Number(values.num_frames), Number(values.frames_per_second));
    const ran = estimatedVideoSeconds(Number(run.body?.num_frames ?? values.num_frames), Number(run.body?.frames_per_second ?? values.frames_per_second));
    return {
      slots: {
        'video-length': (
          <p className="flex items-center gap-2 rounded-xl border border-sky-500/20 bg-sky-500/5 px-3 py-2 text-sm text-sky-200" data-testid="video-length" aria-live="polite">
            <Timer className="size-4 shrink-0" aria-hidden="true" />
            Estimated video length: {formatVideoSeconds(seconds)}
          </p>
        ),
        loras: <LoraList rows={values.loras as LoraRow[]} change={(next) => update('loras', (rows) => next(rows as LoraRow[]))} />,
      },
      estimateNote: `Video length: ${formatVideoSeconds(ran)}`,
    };
  },
};
export default web;
