import { useEffect, useId, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Slider } from 'radix-ui';
import { Gift, Package, Percent, RotateCcw, Save, SearchX, Tag, Wrench, Zap } from 'lucide-react';
import { toast } from '../../lib/toast';
import clsx from 'clsx';
import type { PricingUpdateBody } from '../../../shared/admin.schema.js';
import type { PlanEnergy } from '../../../shared/bundles.js';
import { adminUiMessages } from '../../../shared/admin.messages.js';
import { effectiveCost } from '../../../shared/pricing.js';
import type { ToolPricing } from '../../../shared/pricing.schema.js';
import { Button } from '../../components/Button';
import { LabeledInput } from '../../components/LabeledField';
import { call, client, describeError, errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { fetchPricing } from '../../lib/usePricing';
import { webTools } from '../tools/form/registry';
import { adminKeys, money, numberFormat, parseBaseCost, parseWholeNumber } from './adminApi';
import { Panel } from '../../components/Panel';
import { StatusPill } from '../../components/StatusPill';
import { SuccessBox } from '../../components/SuccessBox';
import { ErrorBox } from '../../components/ErrorBox';
import { Skeleton } from '../../components/Skeleton';

/** The price rows of the tools users can run (the web's tool registry). */
const RUNNABLE_TOOLS: ReadonlySet<string> = new Set(webTools().map((t) => t.info.pricing));

const DISCOUNT_STEP = 5;

interface PlanDraft {
  energy?: string;
  bonus?: string;
}

/**
 * requirements §2 energy plan cards and per-tool pricing cards with one 'Save All
 * Changes'. Edits are drafts over the server rows, so a live refresh of the
 * rows (another admin saved) never wipes what this admin is typing; only
 * values that differ from the server's are sent.
 */
export function PricingEditor() {
  const qc = useQueryClient();
  const tools = useQuery({ queryKey: queryKeys.pricing, queryFn: fetchPricing, staleTime: 60_000 });
  const plans = useQuery({ queryKey: adminKeys.plans, queryFn: () => call(client.GET('/api/plans', { params: { query: { all: '1' } } })), staleTime: 60_000 });

  const [baseDrafts, setBaseDrafts] = useState<Record<string, string>>({});
  const [discountDrafts, setDiscountDrafts] = useState<Record<string, number>>({});
  const [planDrafts, setPlanDrafts] = useState<Record<string, PlanDraft>>({});
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  // Only the tools users can run: a priced row nobody can reach would only mislead.
  const toolRows = useMemo(() => tools.data?.filter((row) => RUNNABLE_TOOLS.has(row.tool_name)), [tools.data]);
  const planRows = plans.data;

  const changes = useMemo(() => {
    const body: PricingUpdateBody = { pricing_updates: {}, tool_discounts: {}, plan_energy_updates: {} };
    let count = 0;
    let invalid = 0;
    for (const row of toolRows ?? []) {
      const base = baseDrafts[row.tool_name];
      if (base !== undefined && parseBaseCost(base) !== row.base_energy_cost) {
        body.pricing_updates[row.tool_name] = parseBaseCost(base);
        count++;
      }
      const discount = discountDrafts[row.tool_name];
      if (discount !== undefined && discount !== row.discount_percentage) {
        body.tool_discounts[row.tool_name] = discount;
        count++;
      }
    }
    for (const plan of planRows ?? []) {
      const d = planDrafts[plan.price_id];
      if (!d) continue;
      const update: { energy_amount?: number; bonus_energy?: number } = {};
      if (d.energy !== undefined) {
        const n = parseWholeNumber(d.energy);
        if (n === undefined) invalid++;
        else if (n !== plan.energy_amount) update.energy_amount = n;
      }
      if (d.bonus !== undefined) {
        const n = parseWholeNumber(d.bonus);
        if (n === undefined) invalid++;
        else if (n !== plan.bonus_energy) update.bonus_energy = n;
      }
      if (Object.keys(update).length) {
        body.plan_energy_updates[plan.price_id] = update;
        count += Object.keys(update).length;
      }
    }
    return { body, count, invalid };
  }, [toolRows, planRows, baseDrafts, discountDrafts, planDrafts]);

  const dirty = changes.count > 0;

  // Leaving the page with unsaved edits asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const discard = () => {
    setBaseDrafts({});
    setDiscountDrafts({});
    setPlanDrafts({});
    setResult(null);
  };

  const save = useMutation({
    mutationFn: (body: PricingUpdateBody) => call(client.POST('/functions/v1/admin-update-pricing', { body })),
    onMutate: () => setResult(null),
    onSuccess: async () => {
      // Fresh rows first, then drop the drafts, so the inputs never flash the old values.
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.pricing }),
        qc.invalidateQueries({ queryKey: adminKeys.audit }),
      ]);
      discard();
      setResult({ ok: true, text: adminUiMessages.updateSucceeded });
      toast.success(adminUiMessages.updateSucceeded);
    },
    onError: (err) => {
      const text = errorMessage(err, adminUiMessages.updateFailed);
      setResult({ ok: false, text });
      toast.error(text);
    },
  });

  const onSave = () => {
    if (changes.invalid > 0) {
      setResult({ ok: false, text: 'Fix the highlighted plan values: energy and bonus must be whole numbers, 0 or more.' });
      return;
    }
    if (!dirty) return;
    save.mutate(changes.body);
  };

  const edited = () => result && setResult(null);

  return (
    <div className="space-y-6">
      <Panel id="admin-plans-title" title="Energy plans" description="ENERGY each bundle grants: base amount plus bonus." icon={Package}>
        {plans.isPending ? (
          <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-48" />
            ))}
          </div>
        ) : plans.isError ? (
          <ErrorBox onRetry={() => void plans.refetch()}>{adminUiMessages.loadPlansFailed(describeError(plans.error))}</ErrorBox>
        ) : planRows!.length === 0 ? (
          <p className="py-6 text-center text-sm text-zinc-400">No plans are configured.</p>
        ) : (
          <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
            {planRows!.map((plan) => (
              <PlanCard
                key={plan.price_id}
                plan={plan}
                draft={planDrafts[plan.price_id] ?? {}}
                onChange={(d) => {
                  edited();
                  setPlanDrafts((all) => ({ ...all, [plan.price_id]: { ...all[plan.price_id], ...d } }));
                }}
              />
            ))}
          </div>
        )}
      </Panel>

      <Panel
        id="admin-tools-title"
        title="Tool pricing"
        description="Base ENERGY cost and discount per tool. VIP and admin accounts always run tools free."
        icon={Wrench}
      >
        {tools.isPending ? (
          <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} className="h-64" />
            ))}
          </div>
        ) : tools.isError ? (
          <ErrorBox onRetry={() => void tools.refetch()}>{adminUiMessages.loadPricingFailed(describeError(tools.error))}</ErrorBox>
        ) : toolRows!.length === 0 ? (
          <div className="flex flex-col items-center gap-3 py-10 text-center">
            <SearchX className="size-10 text-zinc-600" aria-hidden="true" />
            <p className="text-lg font-semibold text-white">{adminUiMessages.noTools}</p>
            <p className="max-w-sm text-sm text-zinc-400">No tool pricing rows were returned by the server.</p>
            <Button variant="secondary" onClick={() => void tools.refetch()} loading={tools.isFetching}>
              Try Again
            </Button>
          </div>
        ) : (
          <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
            {toolRows!.map((row) => (
              <ToolPricingCard
                key={row.tool_name}
                row={row}
                baseDraft={baseDrafts[row.tool_name]}
                discountDraft={discountDrafts[row.tool_name]}
                onBase={(v) => {
                  edited();
                  setBaseDrafts((all) => ({ ...all, [row.tool_name]: v }));
                }}
                onDiscount={(v) => {
                  edited();
                  setDiscountDrafts((all) => ({ ...all, [row.tool_name]: v }));
                }}
              />
            ))}
          </div>
        )}
      </Panel>

      {/* The save bar sticks to the bottom of the screen while there is something to save. */}
      <div
        className={clsx(
          'z-30 rounded-2xl border p-3 sm:p-4',
          dirty
            ? 'sticky bottom-3 border-fuchsia-500/40 bg-zinc-900/95 shadow-2xl shadow-black/50 backdrop-blur-md'
            : 'border-zinc-800 bg-zinc-900/60',
        )}
      >
        <div className="flex items-center justify-between gap-2">
          <p className="min-w-0 text-xs text-zinc-300 sm:text-sm" aria-live="polite">
            {changes.invalid > 0 ? (
              <span className="text-red-300">Some plan values are not whole numbers.</span>
            ) : dirty ? (
              <>
                <span className="font-semibold text-white">{changes.count}</span> unsaved change{changes.count === 1 ? '' : 's'}
              </>
            ) : (
              <span className="text-zinc-400">No unsaved changes</span>
            )}
          </p>
          <div className="flex shrink-0 gap-2">
            <Button
              variant="ghost"
              onClick={discard}
              disabled={(!dirty && changes.invalid === 0) || save.isPending}
              className="px-3"
              aria-label="Discard"
              title="Discard unsaved changes"
            >
              <RotateCcw className="size-4" aria-hidden="true" /> <span className="hidden sm:inline">Discard</span>
            </Button>
            <Button onClick={onSave} loading={save.isPending} disabled={!dirty && changes.invalid === 0}>
              {!save.isPending && <Save className="size-4" aria-hidden="true" />} Save All Changes
            </Button>
          </div>
        </div>
        {result &&
          (result.ok ? (
            <SuccessBox className="mt-3">{result.text}</SuccessBox>
          ) : (
            <ErrorBox className="mt-3">{result.text}</ErrorBox>
          ))}
      </div>
    </div>
  );
}

function NumberField({
  label,
  value,
  onChange,
  invalid,
  changed,
  hint,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  invalid?: boolean;
  changed?: boolean;
  hint?: string;
}) {
  const id = useId();
  const showHint = invalid && hint;
  return (
    <LabeledInput
      compact
      id={id}
      label={label}
      className="min-w-0"
      inputClassName={clsx('tabular-nums', invalid && 'focus:border-red-500 focus:ring-red-500/30', changed && !invalid && 'border-fuchsia-500/60')}
      type="number"
      inputMode="numeric"
      min={0}
      step={1}
      value={value}
      onChange={onChange}
      invalid={invalid}
      aria-describedby={showHint ? `${id}-hint` : undefined}
      after={
        showHint && (
          <p id={`${id}-hint`} className="mt-1 text-xs text-red-300">
            {hint}
          </p>
        )
      }
    />
  );
}

function PlanCard({ plan, draft, onChange }: { plan: PlanEnergy; draft: PlanDraft; onChange: (d: PlanDraft) => void }) {
  const energyText = draft.energy ?? String(plan.energy_amount);
  const bonusText = draft.bonus ?? String(plan.bonus_energy);
  const energy = parseWholeNumber(energyText);
  const bonus = parseWholeNumber(bonusText);
  const total = (energy ?? 0) + (bonus ?? 0);
  const changed = (energy !== undefined && energy !== plan.energy_amount) || (bonus !== undefined && bonus !== plan.bonus_energy);
  const hint = 'Whole number, 0 or more';

  return (
    <article
      aria-label={`${plan.plan_name} plan`}
      data-testid={`plan-${plan.price_id}`}
      className={clsx(
        'flex flex-col rounded-xl border bg-zinc-950/50 p-4 transition',
        changed ? 'border-fuchsia-500/50 ring-1 ring-fuchsia-500/20' : 'border-zinc-800',
      )}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h4 className="truncate font-semibold text-white">{plan.plan_name}</h4>
          <p className="truncate font-mono text-[11px] text-zinc-400" title={plan.price_id}>
            {plan.price_id}
          </p>
        </div>
        <span className="shrink-0 text-lg font-bold text-white">{money.format(plan.price_cents / 100)}</span>
      </div>
      <div className="mt-1.5 flex flex-wrap gap-1.5">
        {!plan.is_active && <StatusPill tone="zinc">Inactive</StatusPill>}
        {changed && <StatusPill tone="fuchsia">Edited</StatusPill>}
      </div>
      <div className="mt-3 grid grid-cols-2 gap-2.5">
        <NumberField
          label="Energy amount"
          value={energyText}
          onChange={(v) => onChange({ energy: v })}
          invalid={energy === undefined}
          changed={energy !== undefined && energy !== plan.energy_amount}
          hint={hint}
        />
        <NumberField
          label="Bonus energy"
          value={bonusText}
          onChange={(v) => onChange({ bonus: v })}
          invalid={bonus === undefined}
          changed={bonus !== undefined && bonus !== plan.bonus_energy}
          hint={hint}
        />
      </div>
      <div className="mt-auto flex items-center justify-between gap-2 border-t border-zinc-800 pt-3 text-sm">
        <span className="flex items-center gap-1.5 text-zinc-400">
          <Gift className="size-3.5" aria-hidden="true" /> Total
        </span>
        <span className="font-bold text-amber-300 tabular-nums" data-testid="plan-total">
          {numberFormat.format(total)} ENERGY
        </span>
      </div>
    </article>
  );
}

function ToolPricingCard({
  row,
  baseDraft,
  discountDraft,
  onBase,
  onDiscount,
}: {
  row: ToolPricing;
  baseDraft: string | undefined;
  discountDraft: number | undefined;
  onBase: (v: string) => void;
  onDiscount: (v: number) => void;
}) {
  const sliderLabel = useId();
  const baseText = baseDraft ?? String(row.base_energy_cost);
  const base = parseBaseCost(baseText);
  const discount = discountDraft ?? row.discount_percentage;
  const cost = effectiveCost(base, discount);
  const changed = base !== row.base_energy_cost || discount !== row.discount_percentage;

  return (
    <article
      aria-label={`${row.display_name} pricing`}
      data-testid={`tool-${row.tool_name}`}
      className={clsx(
        'flex flex-col rounded-xl border bg-zinc-950/50 p-4 transition',
        changed ? 'border-fuchsia-500/50 ring-1 ring-fuchsia-500/20' : 'border-zinc-800',
      )}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h4 className="font-semibold text-white">{row.display_name}</h4>
          <p className="truncate font-mono text-[11px] text-zinc-400">{row.tool_name}</p>
        </div>
        <div className="flex shrink-0 flex-wrap justify-end gap-1.5">
          {!row.is_active && <StatusPill tone="zinc">Inactive</StatusPill>}
          {changed && <StatusPill tone="fuchsia">Edited</StatusPill>}
        </div>
      </div>
      <p className="mt-1.5 line-clamp-2 min-h-10 text-sm text-zinc-400">{row.description}</p>

      <div className="mt-3">
        <NumberField label="Base cost (ENERGY)" value={baseText} onChange={onBase} changed={base !== row.base_energy_cost} />
      </div>

      <div className="mt-4">
        <div className="mb-2 flex items-center justify-between text-xs">
          <span id={sliderLabel} className="flex items-center gap-1 font-medium text-zinc-400">
            <Percent className="size-3" aria-hidden="true" /> Discount
          </span>
          <span className={clsx('font-semibold tabular-nums', discount > 0 ? 'text-emerald-300' : 'text-zinc-300')} data-testid="discount-value">
            {discount}% off
          </span>
        </div>
        <Slider.Root
          value={[discount]}
          min={0}
          max={100}
          step={DISCOUNT_STEP}
          onValueChange={([v]) => onDiscount(v ?? 0)}
          className="relative flex h-5 w-full touch-none items-center select-none"
        >
          <Slider.Track className="relative h-1.5 grow overflow-hidden rounded-full bg-zinc-800">
            <Slider.Range className="absolute h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500" />
          </Slider.Track>
          <Slider.Thumb
            aria-label={`Discount for ${row.display_name}`}
            aria-valuetext={`${discount}% off`}
            className="block size-5 rounded-full border-2 border-fuchsia-400 bg-white shadow-md transition hover:scale-110 focus-visible:ring-4 focus-visible:ring-fuchsia-500/40 focus-visible:outline-none"
          />
        </Slider.Root>
        <div className="mt-1 flex justify-between text-[10px] text-zinc-600" aria-hidden="true">
          <span>0%</span>
          <span>50%</span>
          <span>100%</span>
        </div>
      </div>

      <div className="mt-auto pt-4">
        <div className="flex items-center justify-between gap-2 rounded-lg border border-zinc-800 bg-zinc-900/70 px-3 py-2.5">
          <span className="flex items-center gap-1.5 text-xs text-zinc-400">
            <Tag className="size-3.5" aria-hidden="true" /> Regular users pay
          </span>
          <span className="flex items-baseline gap-1.5" data-testid="effective-cost">
            {cost !== base && <s className="text-xs text-zinc-400 tabular-nums">{base}</s>}
            <Zap className="size-3.5 self-center text-amber-400" fill="currentColor" aria-hidden="true" />
            <span className="font-bold text-amber-300 tabular-nums">{cost} ENERGY</span>
          </span>
        </div>
      </div>
    </article>
  );
}
