import { ImageUpscale } from 'lucide-react';
import { RANGES, toolValidationError } from '../../../../shared/tools.js';
import type { DashboardViewProps } from '../../dashboard/view-ids';
import { AdvancedSettings, SliderField } from '../shared/fields';
import { ImageResult } from '../shared/results';
import { SourceField, type SourceValue } from '../shared/SourceField';
import { FormPanel, RunBar, ToolScreen } from '../shared/ToolScreen';
import { useToolView } from '../shared/useToolView';
import { OUTPUT_DEFAULTS, OutputSettings, outputBody, outputSizeProblem, type OutputForm } from '../shared/OutputSettings';

const ENDPOINT = 'fal-upscaler';

interface UpscalerForm {
  source: SourceValue | null;
  scale: number;
  steps: number;
  output: OutputForm;
}

const DEFAULTS: UpscalerForm = {
  source: null,
  scale: RANGES.upscalerScale.default,
  steps: RANGES.upscalerSteps.default,
  output: OUTPUT_DEFAULTS,
};

/** requirements §2 AI Image Upscaler: image, scale 2-8 (default 2); Advanced: steps 20-100 (display only). */
export default function UpscalerView({ openView }: DashboardViewProps) {
  const { run, access, form, set, submitIfValid, startNew, running } = useToolView<UpscalerForm>(ENDPOINT, DEFAULTS);

  const output = outputBody(form.output);
  const body = { image_url: form.source?.ref ?? '', scale: form.scale, ...(output ? { output } : {}) };
  const sizeProblem = outputSizeProblem(ENDPOINT, output, form.source);
  const validation = toolValidationError(ENDPOINT, body) ?? sizeProblem;

  const submit = () => submitIfValid(body, validation);

  return (
    <ToolScreen
      endpoint={ENDPOINT}
      icon={ImageUpscale}
      accent="violet"
      description="Enlarge your image up to 8x with AI super-resolution: sharper edges and finer detail than plain resizing."
      run={run}
      access={access}
      result={
        run.result && (
          <ImageResult
            endpoint={ENDPOINT}
            result={run.result}
            beforeFallback={form.source?.mediaUrl ?? form.source?.previewUrl}
            icon={ImageUpscale}
            openView={openView}
            onNew={startNew}
          />
        )
      }
    >
      <FormPanel onSubmit={submit} source={<SourceField kind="image" label="Image" value={form.source} onChange={(v) => set('source', v)} defaultTab="upload" disabled={running} />}>
        <SliderField
          label="Scale"
          value={form.scale}
          onChange={(v) => set('scale', v)}
          {...RANGES.upscalerScale}
          format={(v) => `${v}x`}
          hint="Each side of the image is multiplied by this factor."
        />
        <OutputSettings value={form.output} onChange={(v) => set('output', v)} problem={sizeProblem} />
        <AdvancedSettings>
          <SliderField
            label="Steps"
            value={form.steps}
            onChange={(v) => set('steps', v)}
            {...RANGES.upscalerSteps}
            hint="For reference only: the upscaler chooses its own quality settings, so this value is not sent."
          />
        </AdvancedSettings>
        <RunBar
          endpoint={ENDPOINT}
          verb="Upscale"
          icon={ImageUpscale}
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
