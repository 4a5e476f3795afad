import { useId } from 'react';
import { Clapperboard, Plus, Timer, Trash2 } from 'lucide-react';
import {
  ASPECT_RATIOS,
  LORA_TRANSFORMERS,
  PROMPT_MAX,
  RANGES,
  VIDEO_RESOLUTIONS,
  estimatedVideoSeconds,
  formatVideoSeconds,
  toolValidationError,
} from '../../../../shared/tools.js';
import type { DashboardViewProps } from '../../dashboard/view-ids';
import { useToolProvider } from '../shared/access';
import { AdvancedSettings, FieldHint, SeedField, SelectField, SliderField, SwitchField } from '../shared/fields';
import { VideoResult } from '../shared/results';
import { seedError, seedValue } from '../shared/seed';
import { SourceField, type SourceValue } from '../shared/SourceField';
import { FormPanel, RunBar, ToolScreen } from '../shared/ToolScreen';
import { useToolView } from '../shared/useToolView';

const ENDPOINT = 'fal-image-to-video';
const MAX_LORAS = 3;

type Transformer = (typeof LORA_TRANSFORMERS)[number];

interface LoraRow {
  key: string;
  path: string;
  weight_name: string;
  scale: number;
  transformer: Transformer;
}

interface VideoForm {
  source: SourceValue | null;
  prompt: string;
  numFrames: number;
  fps: number;
  resolution: (typeof VIDEO_RESOLUTIONS)[number];
  aspectRatio: (typeof ASPECT_RATIOS)[number];
  inferenceSteps: number;
  guidanceScale: number;
  acceleration: 'regular' | 'none';
  interpolator: 'film' | 'none';
  safety: boolean;
  promptExpansion: boolean;
  negativePrompt: string;
  seed: string;
  loras: LoraRow[];
}

const DEFAULTS: VideoForm = {
  source: null,
  prompt: '',
  numFrames: RANGES.numFrames.default,
  fps: RANGES.fps.default,
  resolution: '720p',
  aspectRatio: 'auto',
  inferenceSteps: RANGES.inferenceSteps.default,
  guidanceScale: RANGES.guidanceScale.default,
  acceleration: 'regular',
  interpolator: 'film',
  safety: false,
  promptExpansion: false,
  negativePrompt: '',
  seed: '',
  loras: [],
};

const MOTION_CHIPS = ['slow zoom in', 'zoom out', 'pan left', 'pan right', 'tilt up', 'dramatic push in'];

/** requirements §7 body: FILM sends 1 interpolated frame and adjusts fps, none sends 0; fixed guidance_scale_2 3.5 and shift 5. */
function toBody(f: VideoForm): Record<string, unknown> {
  const film = f.interpolator === 'film';
  const body: Record<string, unknown> = {
    image_url: f.source?.ref ?? '',
    prompt: f.prompt,
    num_frames: f.numFrames,
    frames_per_second: f.fps,
    resolution: f.resolution,
    aspect_ratio: f.aspectRatio,
    num_inference_steps: f.inferenceSteps,
    enable_safety_checker: f.safety,
    enable_prompt_expansion: f.promptExpansion,
    acceleration: f.acceleration,
    interpolator_model: f.interpolator,
    num_interpolated_frames: film ? 1 : 0,
    adjust_fps_for_interpolation: film,
    guidance_scale: f.guidanceScale,
    guidance_scale_2: 3.5,
    shift: 5,
    // requirements §5: LoRA entries without a path are dropped.
    loras: f.loras
      .filter((l) => l.path.trim())
      .map((l) => ({
        path: l.path.trim(),
        ...(l.weight_name.trim() ? { weight_name: l.weight_name.trim() } : {}),
        scale: l.scale,
        transformer: l.transformer,
      })),
  };
  // requirements §5: negative prompt only if non-blank; seed only when given.
  if (f.negativePrompt.trim()) body.negative_prompt = f.negativePrompt.trim();
  if (f.seed.trim()) body.seed = seedValue(f.seed) ?? f.seed.trim();
  return body;
}

const newLora = (): LoraRow => ({ key: `lora-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, path: '', weight_name: '', scale: RANGES.loraScale.default, transformer: 'high' });

/** requirements §2 AI Image to Video (powered by Wan v2.2 when fal runs it). */
export default function ImageToVideoView({ openView }: DashboardViewProps) {
  const id = useId();
  const { run, access, form, set, setForm, submitIfValid, startNew, running } = useToolView<VideoForm>(ENDPOINT, DEFAULTS);
  const provider = useToolProvider(ENDPOINT);
  const local = provider !== 'fal';

  const body = toBody(form);
  const validation = toolValidationError(ENDPOINT, body);
  const seconds = estimatedVideoSeconds(form.numFrames, form.fps);

  const submit = () => submitIfValid(body, validation);

  const updateLora = (key: string, patch: Partial<LoraRow>) =>
    setForm((f) => ({ ...f, loras: f.loras.map((l) => (l.key === key ? { ...l, ...patch } : l)) }));

  const modelNote = local ? 'Used by the Wan v2.2 model; the on-server renderer does not use it.' : undefined;

  return (
    <ToolScreen
      endpoint={ENDPOINT}
      icon={Clapperboard}
      accent="rose"
      subtitle={provider === 'fal' ? 'powered by Wan v2.2' : undefined}
      description={
        local
          ? 'Runs on this server: smooth camera motion (zoom and pan) from your image, read from your prompt.'
          : 'Bring a still image to life as a short video, guided by your prompt.'
      }
      run={run}
      access={access}
      estimateNote={`Video length: ${formatVideoSeconds(
        estimatedVideoSeconds(Number(run.body?.num_frames ?? form.numFrames), Number(run.body?.frames_per_second ?? form.fps)),
      )}`}
      result={
        run.result && (
          <VideoResult
            endpoint={ENDPOINT}
            result={run.result}
            openView={openView}
            onNew={startNew}
            onReuse={() => run.reset()}
          />
        )
      }
    >
      <FormPanel onSubmit={submit} source={<SourceField kind="image" label="Image" value={form.source} onChange={(v) => set('source', v)} defaultTab="upload" disabled={running} />}>
        <div>
          <label htmlFor={`${id}-prompt`} className="field-label">
            Describe the video animation you want
          </label>
          <textarea
            id={`${id}-prompt`}
            className="input min-h-24 resize-y leading-relaxed"
            placeholder={local ? 'e.g. slow zoom in, pan right' : 'e.g. waves roll in as the camera slowly pushes forward'}
            maxLength={PROMPT_MAX}
            value={form.prompt}
            onChange={(e) => set('prompt', e.target.value)}
          />
          {local && (
            <div className="mt-2 flex flex-wrap gap-1.5" aria-label="Camera moves">
              {MOTION_CHIPS.map((c) => (
                <button
                  key={c}
                  type="button"
                  onClick={() => setForm((f) => ({ ...f, prompt: f.prompt.trim() ? `${f.prompt.trimEnd()}, ${c}` : c }))}
                  className="inline-flex items-center gap-1 rounded-full border border-zinc-700 bg-zinc-800/60 px-2.5 py-1 text-xs text-zinc-300 transition hover:border-sky-500/60 hover:bg-sky-500/10 hover:text-white"
                >
                  <Plus className="size-3" aria-hidden="true" />
                  {c}
                </button>
              ))}
            </div>
          )}
        </div>

        <p className="flex items-center gap-2 rounded-xl border border-sky-500/20 bg-sky-500/5 px-3 py-2 text-sm text-sky-200" data-testid="video-length" aria-live="polite">
          <Timer className="size-4 shrink-0" aria-hidden="true" />
          Estimated video length: {formatVideoSeconds(seconds)}
        </p>

        <AdvancedSettings>
          <SliderField label="Frames" value={form.numFrames} onChange={(v) => set('numFrames', v)} {...RANGES.numFrames} />
          <SliderField label="Frames per second" value={form.fps} onChange={(v) => set('fps', v)} {...RANGES.fps} />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label="Resolution"
              value={form.resolution}
              onChange={(v) => set('resolution', v)}
              options={VIDEO_RESOLUTIONS.map((r) => ({ value: r, label: r }))}
            />
            <SelectField
              label="Aspect ratio"
              value={form.aspectRatio}
              onChange={(v) => set('aspectRatio', v)}
              options={ASPECT_RATIOS.map((r) => ({ value: r, label: r === 'auto' ? 'Auto (from image)' : r }))}
            />
            <SelectField
              label="Interpolation"
              value={form.interpolator}
              onChange={(v) => set('interpolator', v)}
              options={[
                { value: 'film', label: 'FILM', hint: 'smoother, doubles fps' },
                { value: 'none', label: 'None' },
              ]}
            />
            <SelectField
              label="Acceleration"
              value={form.acceleration}
              onChange={(v) => set('acceleration', v)}
              options={[
                { value: 'regular', label: 'Regular' },
                { value: 'none', label: 'None' },
              ]}
              hint={modelNote}
            />
          </div>

          <div className="space-y-5 border-t border-zinc-800 pt-5">
            <p className="text-xs font-semibold tracking-wider text-zinc-400 uppercase">Model</p>
            {local && (
              <FieldHint>
                The settings below tune the Wan v2.2 model. The renderer on this server uses the image, the prompt, the frames, fps, resolution,
                aspect ratio and interpolation; the rest is kept with the run.
              </FieldHint>
            )}
            <SliderField
              label="Inference steps"
              value={form.inferenceSteps}
              onChange={(v) => set('inferenceSteps', v)}
              {...RANGES.inferenceSteps}
            />
            <SliderField label="Guidance scale" value={form.guidanceScale} onChange={(v) => set('guidanceScale', v)} {...RANGES.guidanceScale} />
            <SwitchField label="Safety checker" checked={form.safety} onChange={(v) => set('safety', v)} />
            <SwitchField
              label="Prompt expansion"
              description="Let the model elaborate on a short prompt."
              checked={form.promptExpansion}
              onChange={(v) => set('promptExpansion', v)}
            />
            <div>
              <label htmlFor={`${id}-neg`} className="field-label">
                Negative prompt <span className="font-normal text-zinc-400">(optional)</span>
              </label>
              <textarea
                id={`${id}-neg`}
                className="input min-h-16 resize-y"
                placeholder="What to avoid, e.g. blurry, distorted"
                maxLength={PROMPT_MAX}
                value={form.negativePrompt}
                onChange={(e) => set('negativePrompt', e.target.value)}
              />
            </div>
            <SeedField value={form.seed} onChange={(v) => set('seed', v)} error={seedError(form.seed)} />

            <fieldset className="space-y-3">
              <legend className="field-label">LoRA weights</legend>
              {form.loras.length === 0 && <p className="text-xs text-zinc-400">No LoRA weights. Entries without a path are not sent.</p>}
              {form.loras.map((l, i) => (
                <div key={l.key} className="space-y-3 rounded-xl border border-zinc-800 bg-zinc-950/50 p-3" data-testid="lora-entry">
                  <div className="flex items-center justify-between">
                    <span className="text-xs font-semibold text-zinc-400">LoRA {i + 1}</span>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm text-zinc-400 hover:text-rose-300"
                      onClick={() => setForm((f) => ({ ...f, loras: f.loras.filter((x) => x.key !== l.key) }))}
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
                      <input
                        id={`${id}-lw-${l.key}`}
                        className="input py-2"
                        value={l.weight_name}
                        onChange={(e) => updateLora(l.key, { weight_name: e.target.value })}
                      />
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
              {form.loras.length < MAX_LORAS && (
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => setForm((f) => ({ ...f, loras: [...f.loras, newLora()] }))}>
                  <Plus className="size-3.5" aria-hidden="true" /> Add LoRA
                </button>
              )}
            </fieldset>
          </div>
        </AdvancedSettings>

        <RunBar
          endpoint={ENDPOINT}
          verb="Generate Video"
          icon={Clapperboard}
          access={access}
          validation={validation}
          running={running}
          error={run.phase === 'error' ? run.error : null}
          refunded={run.refunded}
          cancelled={run.cancelled}
        />
      </FormPanel>
    </ToolScreen>
  );
}
