import { useCallback, useMemo } from 'react';
import { formDefaults, hasOutput, textFor, usesProvider, type FormValues } from '../../../../shared/tool-form.js';
import { toolValidationError } from '../../../../shared/tools.js';
import type { DashboardViewProps } from '../../dashboard/view-ids';
import { useToolProvider } from '../shared/access';
import { OUTPUT_DEFAULTS, outputSizeProblem, type outputBody } from '../shared/OutputSettings';
import { ImageResult, VideoResult } from '../shared/results';
import { SourceField, type SourceValue } from '../shared/SourceField';
import { FormPanel, RunBar, ToolScreen } from '../shared/ToolScreen';
import { useToolView } from '../shared/useToolView';
import { toolBody } from './body';
import { FormFields } from './FormFields';
import type { LoadedTool, WebTool } from './registry';
import type { WebParts } from './web-part';

const noParts = (): WebParts => ({});

/** Any tool's screen, drawn from its declared form (decision 040). */
export function ToolView({ tool, form, web, openView }: { tool: WebTool } & LoadedTool & DashboardViewProps) {
  const { info } = tool;
  const endpoint = info.endpoint;
  const defaults = useMemo(() => formDefaults(form, OUTPUT_DEFAULTS), [form]);
  const runnable = useMemo(() => ({ info, ...web.contract }), [info, web]);
  const { run, access, form: values, set, setForm, submitIfValid, startNew, running } = useToolView<FormValues>(runnable, defaults);
  const provider = useToolProvider(endpoint, usesProvider(form));
  const local = provider !== 'fal';
  const update = useCallback((key: string, next: (value: unknown) => unknown) => setForm((f) => ({ ...f, [key]: next(f[key]) })), [setForm]);
  const useParts = web.useParts ?? noParts;
  const parts = useParts({ values, update, run, local, running });

  const source = values.source as SourceValue | null;
  const body = toolBody(form, values);
  const output = body.output as ReturnType<typeof outputBody>;
  const sizeProblem = hasOutput(form) ? outputSizeProblem(info, output, source) : null;
  const baseProblem = toolValidationError(web.contract.body, body);
  const validation = baseProblem ?? parts.problem ?? sizeProblem;
  const submit = () => submitIfValid(body, validation);
  const result = run.result && (
    info.output === 'image' ? (
      <ImageResult
        newRunLabel={info.newRunLabel}
        result={run.result}
        beforeFallback={source?.mediaUrl ?? source?.previewUrl}
        icon={tool.icon}
        openView={openView}
        onNew={startNew}
      />
    ) : (
      <VideoResult newRunLabel={info.newRunLabel} result={run.result} openView={openView} onNew={startNew} onReuse={() => run.reset()} />
    )
  );

  return (
    <ToolScreen
      endpoint={endpoint}
      icon={tool.icon}
      accent={tool.accent}
      subtitle={textFor(form.subtitle, local)}
      description={textFor(form.description, local)}
      run={run}
      access={access}
      estimateNote={parts.estimateNote}
      result={
        result && run.result?.extra ? (
          <div className="space-y-4">
            {result}
            {run.result.extra}
          </div>
        ) : (
          result
        )
      }
    >
      <FormPanel
        onSubmit={submit}
        source={
          <SourceField
            kind={form.source.kind}
            label={form.source.label}
            value={source}
            onChange={(v) => set('source', v)}
            defaultTab={form.source.defaultTab}
            disabled={running}
          />
        }
      >
        <FormFields fields={form.fields} ctx={{ values, set, update, local, submit, sizeProblem, slots: parts.slots ?? {} }} />
        <RunBar
          endpoint={endpoint}
          verb={form.verb}
          icon={tool.icon}
          access={access}
          validation={validation}
          hint={parts.hint === undefined ? undefined : (baseProblem ?? parts.hint)}
          running={running}
          error={run.phase === 'error' ? run.error : null}
          refunded={run.refunded}
          cancelled={run.cancelled}
        />
      </FormPanel>
    </ToolScreen>
  );
}
