import { useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Dialog } from 'radix-ui';
import { Clock, Hourglass, Info, Loader2, XCircle, Zap } from 'lucide-react';
import clsx from 'clsx';

export interface OverlayProgress {
  /** 'submitting' until the server accepted the run, then the job's status. */
  status: string;
  /** The job's progress_stage (e.g. 'Upscaling tile 3 of 8'). */
  stage: string | null;
  /** The job's progress_fraction, 0..1. */
  fraction: number;
}

export interface ProcessingOverlayProps {
  open: boolean;
  /** Tool name, e.g. 'AI Image Upscaler'. */
  title: string;
  /** Operation text, e.g. 'Upscaling your image' (dots are animated). */
  operation: string;
  /** Estimated time, e.g. '30-60 seconds'. */
  estimate: string;
  /** Extra line under the estimate (image to video: the video's length). */
  estimateNote?: string;
  /** ms since epoch when the run started (the elapsed timer counts from here). */
  startedAt: number | null;
  /** '2 ENERGY', 'FREE (ADMIN)' or 'FREE (VIP)'. */
  costLabel: string;
  progress: OverlayProgress;
  icon?: ComponentType<{ className?: string }>;
  /** Cancels the run (refunded). */
  onCancel?: () => void;
  /** False until the run can be cancelled (its job id is known). */
  canCancel?: boolean;
  canceling?: boolean;
}

/** The sliding bar while the run waits to start (no fraction yet). */
const KEYFRAMES = '@keyframes pr-progress-slide{0%{left:-35%}100%{left:100%}}';

/** m:ss */
export function formatElapsed(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function useTicker(ms: number, active: boolean): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setTick((n) => n + 1), ms);
    return () => clearInterval(t);
  }, [ms, active]);
  return tick;
}

/** 'about 40 s left' / 'about 3 min left'. */
export function formatRemaining(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  return s < 120 ? `about ${s} s left` : `about ${Math.round(s / 60)} min left`;
}

/**
 * Time left from the job's own progress: the rate measured since the first fraction this screen saw
 * (queue wait and model loading are not counted), once enough of the run has passed to measure it.
 */
export function useRemaining(progress: OverlayProgress, now: number): number | null {
  const first = useRef<{ at: number; fraction: number } | null>(null);
  const running = progress.status === 'running' && progress.fraction > 0;
  if (!running) first.current = null;
  else if (!first.current) first.current = { at: now, fraction: progress.fraction };
  const start = first.current;
  if (!start || progress.fraction >= 1) return null;
  const done = progress.fraction - start.fraction;
  const took = (now - start.at) / 1000;
  if (done < 0.03 || took < 2) return null;
  return ((1 - progress.fraction) * took) / done;
}

function stageText(p: OverlayProgress): string {
  if (p.status === 'submitting') return 'Starting the run...';
  if (p.status === 'queued') return 'Waiting for a free worker...';
  if (p.status === 'succeeded') return 'Done';
  return p.stage || 'Working...';
}

/**
 * requirements §2 processing overlay: a modal that cannot be dismissed (no Escape, no
 * click outside) showing the tool, the operation with animated dots (0.5 s),
 * the estimated time, the elapsed time (1 s) and the cost, plus the job's real
 * progress (stage, fraction and the time left measured from them). Runs go on
 * on the server, so instead of asking the user to keep the window open it
 * says the window can be closed and the result will wait in the library.
 */
export function ProcessingOverlay({
  open,
  title,
  operation,
  estimate,
  estimateNote,
  startedAt,
  costLabel,
  progress,
  icon: Icon = Loader2,
  onCancel,
  canCancel = true,
  canceling,
}: ProcessingOverlayProps) {
  const dots = useTicker(500, open) % 4;
  useTicker(1000, open);
  const now = Date.now();
  const elapsed = startedAt ? (now - startedAt) / 1000 : 0;
  const remaining = useRemaining(progress, now);
  const percent = Math.round(Math.min(1, Math.max(0, progress.fraction)) * 100);
  const indeterminate = progress.status === 'submitting' || progress.status === 'queued';
  const free = costLabel.startsWith('FREE');

  return (
    <Dialog.Root open={open}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/75 backdrop-blur-sm data-[state=open]:animate-[fade-in_150ms_ease-out]" />
        <style>{KEYFRAMES}</style>
        <Dialog.Content
          data-testid="processing-overlay"
          onEscapeKeyDown={(e) => e.preventDefault()}
          onPointerDownOutside={(e) => e.preventDefault()}
          onInteractOutside={(e) => e.preventDefault()}
          aria-describedby="processing-operation"
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-zinc-800 bg-zinc-900 p-6 shadow-2xl shadow-black/60 outline-none sm:p-7"
        >
          <div className="flex flex-col items-center text-center">
            <span className="relative flex size-16 items-center justify-center">
              <span className="absolute inset-0 animate-ping rounded-2xl bg-fuchsia-500/15 [animation-duration:2s]" aria-hidden="true" />
              <span className="relative flex size-16 items-center justify-center rounded-2xl bg-gradient-to-br from-violet-600 to-fuchsia-600 text-white shadow-lg shadow-fuchsia-900/40">
                <Icon className={clsx('size-7', Icon === Loader2 && 'animate-spin')} aria-hidden="true" />
              </span>
            </span>
            <Dialog.Title className="mt-4 text-xl font-bold tracking-tight text-white">{title}</Dialog.Title>
            <p id="processing-operation" className="mt-1 text-sm text-zinc-300">
              {operation}
              <span aria-hidden="true" className="inline-block w-5 text-left">
                {'.'.repeat(dots)}
              </span>
            </p>
          </div>

          <div className="mt-6">
            <div className="mb-1.5 flex items-baseline justify-between gap-3 text-xs">
              <span className="truncate text-zinc-400" data-testid="progress-stage" aria-live="polite">
                {stageText(progress)}
              </span>
              <span className="shrink-0 font-semibold text-zinc-200 tabular-nums">
                {remaining !== null && (
                  <span className="mr-2 font-normal text-zinc-400" data-testid="time-left">
                    {formatRemaining(remaining)}
                  </span>
                )}
                {indeterminate ? '' : `${percent}%`}
              </span>
            </div>
            <div
              role="progressbar"
              aria-label="Progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={indeterminate ? undefined : percent}
              aria-valuetext={indeterminate ? stageText(progress) : `${percent}% - ${stageText(progress)}`}
              className="relative h-2.5 overflow-hidden rounded-full bg-zinc-800"
            >
              {indeterminate ? (
                <div className="absolute inset-y-0 w-1/3 animate-[pr-progress-slide_1.4s_ease-in-out_infinite] rounded-full bg-gradient-to-r from-violet-500/0 via-fuchsia-500 to-violet-500/0" />
              ) : (
                <div
                  className="h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500 transition-[width] duration-500 ease-out"
                  style={{ width: `${Math.max(2, percent)}%` }}
                />
              )}
            </div>
          </div>

          <dl className="mt-5 grid grid-cols-3 gap-2 text-center">
            <RunFact icon={Hourglass} label="Estimated" valueClassName="leading-tight text-zinc-100">
              {estimate}
            </RunFact>
            <RunFact icon={Clock} label="Elapsed" valueClassName="text-zinc-100 tabular-nums" testId="elapsed">
              {formatElapsed(elapsed)}
            </RunFact>
            <RunFact icon={Zap} label="Cost" valueClassName={free ? 'text-emerald-300' : 'text-amber-300'}>
              {costLabel}
            </RunFact>
          </dl>
          {estimateNote && <p className="mt-2 text-center text-xs text-zinc-400">{estimateNote}</p>}

          <p
            data-testid="close-note"
            className="mt-5 flex items-center justify-center gap-2 rounded-xl border border-sky-400/20 bg-sky-400/5 px-3 py-2 text-sm text-sky-100"
          >
            <Info className="size-4 shrink-0" aria-hidden="true" />
            You can close this window: the run goes on, and the result will be in your library.
          </p>

          {onCancel && (
            <div className="mt-4 flex justify-center">
              <button
                type="button"
                onClick={onCancel}
                disabled={canceling || !canCancel}
                className="btn btn-ghost btn-sm text-zinc-400 hover:text-rose-300"
              >
                {canceling ? <Loader2 className="size-3.5 animate-spin" aria-hidden="true" /> : <XCircle className="size-3.5" aria-hidden="true" />}
                {canceling ? 'Cancelling...' : 'Cancel'}
              </button>
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** One of the three facts under a run's progress: its label with an icon, and its value. */
function RunFact({
  icon: Icon,
  label,
  valueClassName,
  testId,
  children,
}: {
  icon: ComponentType<{ className?: string }>;
  label: string;
  valueClassName: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className="rounded-xl border border-zinc-800 bg-zinc-950/50 px-2 py-2.5">
      <dt className="flex items-center justify-center gap-1 text-[11px] font-medium tracking-wide text-zinc-400 uppercase">
        <Icon className="size-3" aria-hidden="true" /> {label}
      </dt>
      <dd className={clsx('mt-0.5 text-sm font-semibold', valueClassName)} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
