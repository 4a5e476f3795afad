import type { ComponentType, ReactNode } from 'react';
import { AlertCircle, Zap } from 'lucide-react';
import clsx from 'clsx';
import { Button } from '../../../components/Button';
import { IconTile, type Accent } from '../../../components/IconTile';
import { registeredInfo } from '../form/registry';
import { useToolEstimate } from './useToolEstimate';
import { ProcessingOverlay } from '../../../components/ProcessingOverlay';
import { usePurchaseDialog } from '../../payments/purchaseDialogContext';
import type { ToolAccess } from './access';
import type { ToolRun } from './useToolRun';

/** The red box of requirements §8 (tool errors). */
export function ErrorBox({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      role="alert"
      data-testid="tool-error"
      className={clsx('flex items-start gap-3 rounded-xl border border-rose-500/40 bg-rose-500/10 px-4 py-3 text-sm text-rose-200', className)}
    >
      <AlertCircle className="mt-0.5 size-4 shrink-0 text-rose-300" aria-hidden="true" />
      <p className="min-w-0 break-words">{children}</p>
    </div>
  );
}

export interface ToolScreenProps<F> {
  endpoint: string;
  icon: ComponentType<{ className?: string }>;
  accent?: Accent;
  /** Under the title, e.g. 'powered by Wan v2.2'. */
  subtitle?: ReactNode;
  description: ReactNode;
  run: ToolRun<F>;
  access: ToolAccess;
  /** Second overlay line under the estimate (image to video: the video length). */
  estimateNote?: string;
  /** The form (shown unless there is a result). */
  children: ReactNode;
  /** The result view (shown in the 'result' phase). */
  result?: ReactNode;
}

/** A tool screen: header, the form or the result, the red error box and the processing overlay. */
export function ToolScreen<F>({ endpoint, icon: Icon, accent = 'violet', subtitle, description, run, access, estimateNote, children, result }: ToolScreenProps<F>) {
  const tool = registeredInfo(endpoint);
  const estimate = useToolEstimate(endpoint, run.body, run.phase === 'processing');
  return (
    <section aria-labelledby="tool-title" className="space-y-5">
      <header className="panel flex items-start gap-4 p-5 sm:p-6">
        <IconTile icon={Icon} accent={accent} size="header" />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
            <h2 id="tool-title" className="text-2xl font-bold tracking-tight text-white">
              {tool.title}
            </h2>
            {subtitle && <span className="text-sm font-medium text-fuchsia-300">{subtitle}</span>}
          </div>
          <p className="mt-1 text-sm text-zinc-400">{description}</p>
        </div>
        <span
          className={clsx(
            'hidden shrink-0 items-center gap-1 rounded-full px-2.5 py-1 text-xs font-bold sm:inline-flex',
            access.freeLabel ? 'bg-emerald-500/15 text-emerald-300' : 'bg-amber-400/15 text-amber-300',
          )}
        >
          <Zap className="size-3" fill="currentColor" aria-hidden="true" />
          {access.freeLabel ?? `${access.cost} ENERGY ${tool.output === 'video' ? 'per video' : 'per image'}`}
        </span>
      </header>

      {run.phase === 'result' && result ? result : children}

      <ProcessingOverlay
        open={run.phase === 'processing'}
        title={tool.title}
        operation={tool.operation}
        estimate={estimate}
        estimateNote={estimateNote}
        startedAt={run.startedAt}
        costLabel={access.costLabel}
        progress={run.progress}
        icon={Icon}
        onCancel={() => void run.cancel()}
        canCancel={!!run.jobId}
        canceling={run.canceling}
      />
    </section>
  );
}

export interface RunBarProps {
  endpoint: string;
  /** Verb on the button, e.g. 'Upscale'. */
  verb: string;
  icon: ComponentType<{ className?: string }>;
  access: ToolAccess;
  /** Why the current body may not run (its schema's words, the spec's), or null. */
  validation: string | null;
  running: boolean;
  /** Text under the button when it is disabled by `validation` (default: the validation message). */
  hint?: string | null;
  /** The last run's error (red box). */
  error?: string | null;
  /** The failed run's ENERGY went back (said under the error unless the error says so). */
  refunded?: boolean;
  /** The user cancelled the last run: `error` is a neutral notice. */
  cancelled?: boolean;
}

/**
 * The run button with its cost, disabled while inputs are missing or invalid,
 * while running, or when the balance is short (requirements §5), with the reason
 * under it and a way to buy ENERGY.
 */
export function RunBar({ verb, icon: Icon, access, validation, running, error, hint, refunded, cancelled }: RunBarProps) {
  const { openPurchase } = usePurchaseDialog();
  const disabled = running || !!validation || !access.canAfford;
  const price = access.freeLabel ? 'FREE' : `${access.cost} ENERGY`;
  return (
    <div className="space-y-3">
      {error && cancelled && (
        <p role="status" data-testid="run-cancelled" className="rounded-xl border border-zinc-700 bg-zinc-800/60 px-4 py-3 text-sm text-zinc-200">
          {error}
        </p>
      )}
      {error && !cancelled && (
        <ErrorBox>
          {error}
          {refunded && !access.freeLabel && !/refund/i.test(error) && (
            <span className="mt-1 block text-xs text-rose-200/80">The ENERGY for this run has been refunded.</span>
          )}
        </ErrorBox>
      )}
      {access.insufficientMessage && !running && (
        <div
          role="status"
          data-testid="insufficient-energy"
          className="flex flex-col gap-3 rounded-xl border border-amber-400/30 bg-amber-400/10 px-4 py-3 text-sm text-amber-100 sm:flex-row sm:items-center sm:justify-between"
        >
          <p>{access.insufficientMessage}</p>
          <Button variant="energy" size="sm" onClick={openPurchase} className="shrink-0 self-start sm:self-auto">
            <Zap className="size-3.5" fill="currentColor" aria-hidden="true" /> Buy ENERGY
          </Button>
        </div>
      )}
      <Button type="submit" disabled={disabled} loading={running} className="w-full py-3 text-base" data-testid="run-button">
        {!running && <Icon className="size-5" aria-hidden="true" />}
        <span>{verb}</span>
        <span aria-hidden="true" className="opacity-60">
          ·
        </span>
        <span className={clsx('inline-flex items-center gap-1', access.freeLabel ? 'text-emerald-200' : '')}>
          {!access.freeLabel && <Zap className="size-4" fill="currentColor" aria-hidden="true" />}
          {price}
        </span>
      </Button>
      {validation && !running && (
        <p className="text-center text-xs text-zinc-400" data-testid="validation-hint" aria-live="polite">
          {hint === undefined ? validation : hint}
        </p>
      )}
    </div>
  );
}

/**
 * A form panel in two columns on wide screens: the input on the left (kept in
 * view while the settings scroll), the settings and the run button on the
 * right. Only the right column is a <form>: the source picker has a form of
 * its own (URL tab), and forms must not nest.
 */
export function FormPanel({
  onSubmit,
  source,
  children,
}: {
  onSubmit: () => void;
  source: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="panel grid gap-6 p-5 sm:p-6 lg:grid-cols-[minmax(0,1.1fr)_minmax(0,1fr)] lg:gap-8">
      <div className="min-w-0 lg:sticky lg:top-24 lg:self-start">{source}</div>
      <form
        noValidate
        aria-label="Settings"
        onSubmit={(e) => {
          e.preventDefault();
          // Only this form's own submit (never one bubbling up from a nested widget).
          if (e.target === e.currentTarget) onSubmit();
        }}
        className="min-w-0 space-y-5"
      >
        {children}
      </form>
    </div>
  );
}
