import { MonitorUp } from 'lucide-react';
import { RANGES, toolValidationError } from '../../../../shared/tools.js';
import type { DashboardViewProps } from '../../dashboard/view-ids';
import { useToolProvider } from '../shared/access';
import { AdvancedSettings, SliderField } from '../shared/fields';
import { VideoResult } from '../shared/results';
import { SourceField, type SourceValue } from '../shared/SourceField';
import { FormPanel, RunBar, ToolScreen } from '../shared/ToolScreen';
import { useToolView } from '../shared/useToolView';

const ENDPOINT = 'fal-video-upscaler';

interface VideoUpscalerForm {
  source: SourceValue | null;
  scale: number;
}

const DEFAULTS: VideoUpscalerForm = { source: null, scale: RANGES.videoUpscaleScale.default };

/** requirements §2 AI Video Upscaler: a video (tabs URL, Upload, Gallery; Gallery default), scale 1.5-4 (default 2). */
export default function VideoUpscalerView({ openView }: DashboardViewProps) {
  const { run, access, form, set, submitIfValid, startNew, running } = useToolView<VideoUpscalerForm>(ENDPOINT, DEFAULTS);
  const local = useToolProvider(ENDPOINT) !== 'fal';

  const body = { video_url: form.source?.ref ?? '', scale: form.scale };
  const validation = toolValidationError(ENDPOINT, body);

  const submit = () => submitIfValid(body, validation);

  return (
    <ToolScreen
      endpoint={ENDPOINT}
      icon={MonitorUp}
      accent="sky"
      description="Increase the resolution of your video, frame by frame. The sound is kept."
      run={run}
      access={access}
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
      <FormPanel onSubmit={submit} source={<SourceField kind="video" label="Video" value={form.source} onChange={(v) => set('source', v)} defaultTab="gallery" disabled={running} />}>
        <SliderField
          label="Scale"
          value={form.scale}
          onChange={(v) => set('scale', v)}
          {...RANGES.videoUpscaleScale}
          format={(v) => `${v}x`}
          hint="Width and height are multiplied by this factor."
        />
        <AdvancedSettings>
          <p className="text-sm text-zinc-400">
            {local
              ? 'Runs on this server: short clips are upscaled frame by frame with an AI super-resolution model (ESRGAN), longer ones with a high-quality resampling filter so that they finish in time. The frame rate, length and audio stay as they are.'
              : 'Runs on a cloud AI video upscaler. The frame rate, length and audio stay as they are.'}
          </p>
        </AdvancedSettings>
        <RunBar
          endpoint={ENDPOINT}
          verb="Upscale Video"
          icon={MonitorUp}
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
