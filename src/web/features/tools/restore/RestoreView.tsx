import { Sparkles } from 'lucide-react';
import { RANGES, toolValidationError } from '../../../../shared/tools.js';
import type { DashboardViewProps } from '../../dashboard/view-ids';
import { AdvancedSettings, SeedField, SelectField, SliderField } from '../shared/fields';
import { ImageResult } from '../shared/results';
import { SourceField, type SourceValue } from '../shared/SourceField';
import { FormPanel, RunBar, ToolScreen } from '../shared/ToolScreen';
import { useToolView } from '../shared/useToolView';
import { OUTPUT_DEFAULTS, OutputSettings, outputBody, outputSizeProblem, type OutputForm } from '../shared/OutputSettings';
import { seedError, seedValue } from '../shared/seed';
import { findingsOf, RestoreFindings, UNCHANGED_RUN_NOTE } from './RestoreFindings';

const ENDPOINT = 'fal-image-restore';

type Backbone = 'edsr' | 'rdn';

interface RestoreForm {
  source: SourceValue | null;
  upscaling: number;
  backbone: Backbone;
  seed: string;
  output: OutputForm;
}

const DEFAULTS: RestoreForm = { source: null, upscaling: RANGES.restoreUpscaling.default, backbone: 'edsr', seed: '', output: OUTPUT_DEFAULTS };

const BACKBONES = [
  { value: 'edsr', label: 'EDSR', hint: 'default, balanced' },
  { value: 'rdn', label: 'RDN', hint: 'finer texture' },
] as const;

/** requirements §2 AI Image Restore: image; Advanced: upscaling 1-4 (step 0.5, default 2), backbone edsr/rdn, optional seed. */
export default function RestoreView({ openView }: DashboardViewProps) {
  const { run, access, form, set, submitIfValid, startNew, running } = useToolView<RestoreForm>(ENDPOINT, DEFAULTS);

  // requirements §5: an empty seed is not sent.
  const body: Record<string, unknown> = { image_url: form.source?.ref ?? '', upscaling: form.upscaling, backbone: form.backbone };
  const output = outputBody(form.output);
  if (output) body.output = output;
  if (form.seed.trim()) body.seed = seedValue(form.seed) ?? form.seed.trim();
  const sizeProblem = outputSizeProblem(ENDPOINT, output, form.source);
  const validation = toolValidationError(ENDPOINT, body) ?? sizeProblem;
  const seedProblem = seedError(form.seed);

  const submit = () => submitIfValid(body, validation);
  const findings = findingsOf(run.result);

  return (
    <ToolScreen
      endpoint={ENDPOINT}
      icon={Sparkles}
      accent="amber"
      description="Repair damaged, old or corrupted photos: less noise and blur, better light and detail, and a sharper, larger result."
      run={run}
      access={access}
      result={
        run.result && (
          <div className="space-y-4">
            <ImageResult
              endpoint={ENDPOINT}
              result={run.result}
              beforeFallback={form.source?.mediaUrl ?? form.source?.previewUrl}
              icon={Sparkles}
              openView={openView}
              onNew={startNew}
            />
            {findings && <RestoreFindings findings={findings} />}
          </div>
        )
      }
    >
      <FormPanel onSubmit={submit} source={<SourceField kind="image" label="Image" value={form.source} onChange={(v) => set('source', v)} defaultTab="upload" disabled={running} />}>
        <div className="rounded-xl border border-zinc-800 bg-zinc-950/40 px-4 py-3 text-sm text-zinc-400">
          Works best on scanned prints, low-light shots and heavily compressed images. The defaults suit most photos.
        </div>
        <OutputSettings value={form.output} onChange={(v) => set('output', v)} problem={sizeProblem} />
        <AdvancedSettings>
          <SliderField
            label="Upscaling"
            value={form.upscaling}
            onChange={(v) => set('upscaling', v)}
            {...RANGES.restoreUpscaling}
            format={(v) => `${v}x`}
            hint="How much larger the restored image is (1x keeps the size)."
          />
          <SelectField label="Backbone" value={form.backbone} onChange={(v) => set('backbone', v)} options={BACKBONES} />
          <SeedField value={form.seed} onChange={(v) => set('seed', v)} error={seedProblem} />
        </AdvancedSettings>
        <p className="text-xs text-zinc-400" data-testid="restore-unchanged-note">
          {UNCHANGED_RUN_NOTE}
        </p>
        <RunBar
          endpoint={ENDPOINT}
          verb="Restore"
          icon={Sparkles}
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
