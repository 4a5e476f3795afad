import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Images, Layers, X, Zap } from 'lucide-react';
import clsx from 'clsx';
import { BATCH_MAX_ITEMS, batchMessages, batchShortfall, type BatchShortfall } from '../../../shared/batch.schema.js';
import { batchForm, formDefaults, type FormValues } from '../../../shared/tool-form.js';
import { toolValidationError } from '../../../shared/tools.js';
import { useAuth, useUser } from '../../app/auth';
import { Button } from '../../components/Button';
import { MediaPickerDialog } from '../library/MediaPickerDialog';
import { ViewHeader } from '../../components/ViewHeader';
import { formatRemaining } from '../../components/ProcessingOverlay';
import { ApiError, errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { usePricing } from '../../lib/usePricing';
import type { DashboardViewProps } from '../dashboard/view-ids';
import { usePurchaseDialog } from '../payments/purchaseDialogContext';
import { batchSettings } from '../tools/form/body';
import { batchTools, type WebTool } from '../tools/form/registry';
import { useToolProvider } from '../tools/shared/access';
import { OUTPUT_DEFAULTS, OutputSettings, outputBody, outputSizeProblem, type OutputForm } from '../tools/shared/OutputSettings';
import { batchKeys, createBatch, estimateBatch } from './batchApi';
import { toBatchImage, type BatchImage, type NewBatchState } from './batchImages';
import { BatchSettings } from './BatchSettings';
import { MultiDropZone } from './MultiDropZone';
import { RecentBatches } from './RecentBatches';
import { useBatchUploads } from './useBatchUploads';

/** Only the shape matters for checking the settings; the real ids are checked by the server. */
const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

/** A tool's form and web part (its batch fields and checks), loaded once per tool. */
function useLoadedTool(tool: WebTool) {
  return useQuery({ queryKey: ['tool-parts', tool.info.endpoint], queryFn: () => tool.load(), staleTime: Infinity, gcTime: Infinity }).data;
}

/**
 * /dashboard/batch: one image tool and its settings, up to 100 images (from
 * My Images and/or uploaded here), the total cost from the server, then one
 * click. A balance that covers only part offers to run that part or top up.
 */
export function NewBatch({ openView }: Pick<DashboardViewProps, 'openView'>) {
  const location = useLocation();
  const qc = useQueryClient();
  const user = useUser();
  const { rolesLoaded } = useAuth();
  const pricing = usePricing();
  const { openPurchase } = usePurchaseDialog();
  const tools = batchTools();
  const [tool, setTool] = useState<WebTool>(() => tools[0]!);
  const endpoint = tool.info.endpoint;
  const loaded = useLoadedTool(tool);
  const local = useToolProvider(endpoint, !!loaded?.web.batchProblem) !== 'fal';
  // The settings changed from the tool's defaults, per tool.
  const [settings, setSettings] = useState<Record<string, FormValues>>({});
  const [images, setImages] = useState<BatchImage[]>(() => ((location.state as NewBatchState | null)?.batchImages ?? []).slice(0, BATCH_MAX_ITEMS));
  const [pickerOpen, setPickerOpen] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState<BatchShortfall | null>(null);

  const addImages = (more: BatchImage[]) =>
    setImages((list) => {
      const have = new Set(list.map((i) => i.id));
      const fresh = more.filter((i) => !have.has(i.id));
      return [...list, ...fresh].slice(0, BATCH_MAX_ITEMS);
    });
  const uploads = useBatchUploads((item) => addImages([toBatchImage(item)]));
  const toggleImage = (image: BatchImage) =>
    setImages((list) => (list.some((i) => i.id === image.id) ? list.filter((i) => i.id !== image.id) : list.length < BATCH_MAX_ITEMS ? [...list, image] : list));

  // The result files' format and size (issue 26): one choice for every tool, sent as settings.output.
  const [output, setOutput] = useState<OutputForm>(OUTPUT_DEFAULTS);
  const defaults = useMemo(() => loaded && formDefaults(batchForm(loaded.form), OUTPUT_DEFAULTS), [loaded]);
  const values = settings[endpoint] ?? defaults;
  const touched = Object.hasOwn(settings, endpoint) || !!outputBody(output);
  const toolSettings = useMemo(() => {
    if (!loaded || !values) return null;
    const out = outputBody(output);
    const chosen = batchSettings(loaded.form, values);
    return out ? { ...chosen, output: out } : chosen;
  }, [loaded, values, output]);
  const ids = useMemo(() => images.map((i) => i.id), [images]);
  const settingsProblem = useMemo(() => {
    if (!loaded || !toolSettings) return null;
    return toolValidationError(loaded.web.contract.body, { [loaded.form.source.key]: SAMPLE_ID, ...toolSettings }) ?? loaded.web.batchProblem?.(toolSettings, local) ?? null;
  }, [loaded, toolSettings, local]);
  // The server's own rule, image by image: a target size one of them cannot reach is said before anything is charged.
  const sizeProblem = useMemo(() => {
    const out = outputBody(output);
    for (const image of images) {
      const problem = outputSizeProblem(tool.info, out, image);
      if (problem) return `${image.name}: ${problem}`;
    }
    return null;
  }, [tool, output, images]);
  const validation = settingsProblem ?? (ids.length === 0 ? batchMessages.noImages : sizeProblem);

  // A new choice forgets an earlier refusal.
  useEffect(() => {
    setRefused(null);
    setError(null);
  }, [tool, toolSettings, ids]);

  const estimate = useQuery({
    queryKey: ['batches', 'estimate', endpoint, toolSettings, ids, user.energyBalance],
    queryFn: ({ signal }) => estimateBatch({ tool: endpoint, settings: toolSettings ?? {}, items: ids }, signal),
    enabled: !validation && !!toolSettings,
    placeholderData: keepPreviousData,
    retry: false,
  });

  const freeLabel = user.isAdmin ? 'FREE (ADMIN)' : user.isVip ? 'FREE (VIP)' : null;
  const unitCost = (t: WebTool) => pricing.costOf(t.info);
  const est = !validation && estimate.data?.tool === endpoint ? estimate.data : undefined;
  const total = est?.total_cost ?? (freeLabel ? 0 : unitCost(tool) * ids.length);
  const affordable = refused?.affordable_count ?? (est && est.affordable_count < est.item_count ? est.affordable_count : null);
  const rolesKnown = rolesLoaded && !pricing.isLoading;

  const run = async (count: number) => {
    setSubmitting(true);
    setError(null);
    try {
      const batch = await createBatch({ tool: endpoint, settings: toolSettings ?? {}, items: ids.slice(0, count) });
      void qc.invalidateQueries({ queryKey: batchKeys.list });
      void qc.invalidateQueries({ queryKey: queryKeys.me });
      openView('batch', batch.id);
    } catch (err) {
      const shortfall = err instanceof ApiError && err.status === 402 ? batchShortfall.safeParse(err.body) : null;
      if (shortfall?.success) setRefused(shortfall.data);
      else setError(errorMessage(err));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="space-y-6">
      <ViewHeader
        icon={Layers}
        title="Batch Processing"
        subtitle={
          <p className="mt-1 text-sm text-zinc-400">
            Run one tool on up to {BATCH_MAX_ITEMS} images. Each image is charged on its own, and any that fails is refunded.
          </p>
        }
      />

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0 space-y-6">
          <section aria-labelledby="batch-tool" className="space-y-4 rounded-2xl border border-zinc-800 bg-zinc-900/60 p-4 sm:p-6">
            <h3 id="batch-tool" className="text-lg font-semibold text-white">
              1. Tool and settings
            </h3>
            <div role="radiogroup" aria-labelledby="batch-tool" className="grid gap-2 sm:grid-cols-3">
              {tools.map((t) => (
                <label
                  key={t.info.endpoint}
                  className={clsx(
                    'flex cursor-pointer flex-col gap-1 rounded-xl border px-3 py-2.5 text-sm transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-fuchsia-400',
                    tool === t ? 'border-fuchsia-400 bg-fuchsia-500/10' : 'border-zinc-700 bg-zinc-950/40 hover:border-zinc-500',
                  )}
                >
                  <span className="flex items-center gap-2 font-medium text-white">
                    <input type="radio" name="batch-tool" value={t.info.endpoint} checked={tool === t} onChange={() => setTool(t)} className="accent-fuchsia-500" />
                    {t.info.title}
                  </span>
                  <span className="text-xs text-zinc-400">{freeLabel ?? `${unitCost(t)} ENERGY per image`}</span>
                </label>
              ))}
            </div>
            {loaded && values && (
              <BatchSettings form={loaded.form} values={values} local={local} onChange={(next) => setSettings((s) => ({ ...s, [endpoint]: next }))} />
            )}
            <OutputSettings value={output} onChange={setOutput} problem={sizeProblem} />
            {settingsProblem && touched && <p className="text-xs text-rose-300">{settingsProblem}</p>}
          </section>

          <section aria-labelledby="batch-images" className="space-y-4 rounded-2xl border border-zinc-800 bg-zinc-900/60 p-4 sm:p-6">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h3 id="batch-images" className="text-lg font-semibold text-white">
                2. Images{' '}
                <span className="text-sm font-normal text-zinc-400" data-testid="batch-image-count">
                  {images.length} of {BATCH_MAX_ITEMS}
                </span>
              </h3>
              <div className="flex flex-wrap gap-2">
                {images.length > 0 && (
                  <Button variant="ghost" size="sm" onClick={() => setImages([])}>
                    Clear all
                  </Button>
                )}
                <Button variant="secondary" size="sm" onClick={() => setPickerOpen(true)} disabled={images.length >= BATCH_MAX_ITEMS}>
                  <Images className="size-4" aria-hidden="true" /> Choose from My Images
                </Button>
              </div>
            </div>
            <MultiDropZone uploads={uploads.uploads} onFiles={uploads.add} onDismiss={uploads.dismissFinished} disabled={images.length >= BATCH_MAX_ITEMS} />
            {images.length > 0 && (
              <ul aria-label="Chosen images" className="grid grid-cols-3 gap-2 sm:grid-cols-5 xl:grid-cols-6">
                {images.map((img) => (
                  <li key={img.id} className="group relative aspect-square overflow-hidden rounded-lg border border-zinc-800 bg-zinc-800" data-testid="chosen-image">
                    {img.thumbnailUrl && <img src={img.thumbnailUrl} alt="" loading="lazy" className="size-full object-cover" />}
                    <span className="absolute inset-x-0 bottom-0 truncate bg-black/70 px-1.5 py-0.5 text-[11px] text-zinc-100">{img.name}</span>
                    <button
                      type="button"
                      onClick={() => setImages((list) => list.filter((i) => i.id !== img.id))}
                      aria-label={`Remove ${img.name}`}
                      className="absolute top-1 right-1 flex size-7 items-center justify-center rounded-full bg-black/70 text-zinc-200 hover:bg-red-600 hover:text-white"
                    >
                      <X className="size-4" aria-hidden="true" />
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>

        <aside aria-labelledby="batch-summary" className="h-fit space-y-4 rounded-2xl border border-zinc-800 bg-zinc-900/60 p-4 sm:p-6 lg:sticky lg:top-24">
          <h3 id="batch-summary" className="text-lg font-semibold text-white">
            3. Confirm
          </h3>
          <dl className="space-y-2 text-sm">
            <div className="flex justify-between gap-3">
              <dt className="text-zinc-400">Tool</dt>
              <dd className="text-right text-zinc-100">{tool.info.title}</dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt className="text-zinc-400">Images</dt>
              <dd className="text-zinc-100 tabular-nums">{ids.length}</dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt className="text-zinc-400">Total cost</dt>
              <dd className="flex items-center gap-1 font-semibold text-amber-300 tabular-nums" data-testid="batch-total">
                {freeLabel ?? (
                  <>
                    <Zap className="size-4" fill="currentColor" aria-hidden="true" /> {total} ENERGY
                  </>
                )}
              </dd>
            </div>
            {est?.estimate_seconds ? (
              <div className="flex justify-between gap-3">
                <dt className="text-zinc-400">Expected time</dt>
                <dd className="text-zinc-100">{formatRemaining(est.estimate_seconds).replace(' left', '')}</dd>
              </div>
            ) : null}
          </dl>

          {validation && ids.length > 0 ? <p className="text-sm text-zinc-400">{validation}</p> : null}
          {!validation && estimate.isError && <p className="text-sm text-red-300">{errorMessage(estimate.error)}</p>}

          {affordable !== null && rolesKnown && !freeLabel ? (
            <div role="status" className="space-y-3 rounded-xl border border-amber-400/30 bg-amber-400/10 p-3 text-sm text-amber-100" data-testid="batch-partial">
              <p>{affordable > 0 ? batchMessages.partial(affordable, ids.length) : batchMessages.coversNone}</p>
              <div className="flex flex-wrap gap-2">
                {affordable > 0 && (
                  <Button size="sm" loading={submitting} onClick={() => void run(affordable)}>
                    Run {affordable}
                  </Button>
                )}
                <Button variant="energy" size="sm" onClick={openPurchase}>
                  <Zap className="size-4" aria-hidden="true" /> Top up
                </Button>
              </div>
            </div>
          ) : (
            <Button
              className="w-full"
              data-testid="batch-run"
              loading={submitting}
              disabled={!!validation || !toolSettings || uploads.busy || (estimate.isFetching && !est)}
              onClick={() => void run(ids.length)}
            >
              <Layers className="size-4" aria-hidden="true" /> Run batch · {ids.length} {ids.length === 1 ? 'image' : 'images'}
            </Button>
          )}
          {uploads.busy && <p className="text-xs text-zinc-400">Waiting for the uploads to finish...</p>}
          {error && (
            <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 px-3 py-2 text-sm text-red-200">
              {error}
            </p>
          )}
        </aside>
      </div>

      <RecentBatches />

      <MediaPickerDialog
        kind="image"
        open={pickerOpen}
        onOpenChange={setPickerOpen}
        multiSelect={{ selected: new Set(ids), onToggle: (item) => toggleImage(toBatchImage(item)) }}
      />
    </div>
  );
}
