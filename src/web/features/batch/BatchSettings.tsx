import { useId } from 'react';
import { PROMPT_MAX, RANGES } from '../../../shared/tool-catalog.js';
import type { BatchTool } from '../../../shared/batch.schema.js';
import { FieldHint, SelectField, SliderField } from '../tools/shared/fields';

/** The settings a batch applies to every image, per tool (the same fields and limits as the tool screens). */
export type BatchSettingsValue = Record<string, unknown>;

export const DEFAULT_SETTINGS: Record<BatchTool, BatchSettingsValue> = {
  'fal-upscaler': { scale: RANGES.upscalerScale.default },
  'fal-image-restore': { upscaling: RANGES.restoreUpscaling.default, backbone: 'edsr' },
  'fal-image-editor': { prompt: '' },
};

const BACKBONES = [
  { value: 'edsr', label: 'EDSR', hint: 'default, balanced' },
  { value: 'rdn', label: 'RDN', hint: 'finer texture' },
] as const;

export function BatchSettings({
  tool,
  value,
  onChange,
}: {
  tool: BatchTool;
  value: BatchSettingsValue;
  onChange: (next: BatchSettingsValue) => void;
}) {
  const id = useId();
  const set = (key: string, v: unknown) => onChange({ ...value, [key]: v });

  if (tool === 'fal-upscaler') {
    return (
      <SliderField
        label="Scale"
        value={Number(value.scale)}
        onChange={(v) => set('scale', v)}
        {...RANGES.upscalerScale}
        format={(v) => `${v}x`}
        hint="Each side of every image is multiplied by this factor."
      />
    );
  }
  if (tool === 'fal-image-restore') {
    return (
      <div className="space-y-5">
        <SliderField
          label="Upscaling"
          value={Number(value.upscaling)}
          onChange={(v) => set('upscaling', v)}
          {...RANGES.restoreUpscaling}
          format={(v) => `${v}x`}
          hint="How much larger each restored image is (1x keeps the size)."
        />
        <SelectField
          label="Backbone"
          value={String(value.backbone) as 'edsr' | 'rdn'}
          onChange={(v) => set('backbone', v)}
          options={BACKBONES}
        />
      </div>
    );
  }
  return (
    <div>
      <label htmlFor={`${id}-prompt`} className="field-label">
        Describe the changes (applied to every image)
      </label>
      <textarea
        id={`${id}-prompt`}
        className="input min-h-24 resize-y leading-relaxed"
        placeholder="e.g. rotate 90 and make it black and white"
        maxLength={PROMPT_MAX}
        value={String(value.prompt ?? '')}
        onChange={(e) => set('prompt', e.target.value)}
      />
      <FieldHint>One prompt for the whole batch.</FieldHint>
    </div>
  );
}
