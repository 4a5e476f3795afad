import { useId, useState } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Ban, ListChecks, RotateCcw } from 'lucide-react';
import { toast } from 'sonner';
import { TOOLS, type ToolEndpoint } from '../../../shared/tool-catalog.js';
import { ADMIN_JOB_STATUSES, type AdminJob } from '../../../shared/admin-jobs.schema.js';
import { Button } from '../../components/Button';
import { RefreshButton } from '../../components/RefreshButton';
import { LoadOlder, QueryStates } from '../../components/QueryStates';
import { useDebounced } from '../../lib/useDebounced';
import { call, client, describeError, errorMessage } from '../../lib/api';
import { adminKeys, formatDateTime, numberFormat } from './adminApi';
import { StatusPill } from '../../components/StatusPill';

const PAGE_SIZE = 20;

const STATUS: Record<AdminJob['status'], { label: string; tone: 'emerald' | 'amber' | 'red' | 'zinc' | 'sky' }> = {
  queued: { label: 'Queued', tone: 'zinc' },
  running: { label: 'Running', tone: 'sky' },
  succeeded: { label: 'Succeeded', tone: 'emerald' },
  failed: { label: 'Failed', tone: 'red' },
  canceled: { label: 'Cancelled', tone: 'amber' },
};

const PERIODS = [
  { id: 'hour', label: 'Last hour', ms: 3_600_000 },
  { id: 'day', label: 'Last 24 hours', ms: 86_400_000 },
  { id: 'week', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { id: 'all', label: 'Any time', ms: 0 },
] as const;

export const toolTitle = (tool: string) => TOOLS[tool as ToolEndpoint]?.title ?? tool;

function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/** GET /api/admin/jobs: every run, filtered by tool, status, user and time; retry and cancel one. */
export function JobsConsole() {
  const ids = { tool: useId(), status: useId(), user: useId(), period: useId() };
  const [tool, setTool] = useState('');
  const [status, setStatus] = useState<AdminJob['status'] | ''>('');
  const [userText, setUserText] = useState('');
  const [period, setPeriod] = useState<(typeof PERIODS)[number]['id']>('day');
  const user = useDebounced(userText.trim(), 300);

  const filters = { tool, status, user, period };
  const q = useInfiniteQuery({
    queryKey: adminKeys.jobs(filters),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const span = PERIODS.find((p) => p.id === period)!.ms;
      const query = {
        limit: PAGE_SIZE,
        tool: tool || undefined,
        status: status || undefined,
        user: user || undefined,
        from: span ? new Date(Date.now() - span).toISOString() : undefined,
        cursor: pageParam ?? undefined,
      };
      return call(client.GET('/api/admin/jobs', { params: { query } }));
    },
    getNextPageParam: (last) => last.next_cursor ?? null,
    staleTime: 5_000,
  });
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = tool || status || user || period !== 'all';

  return (
    <div className="space-y-3">
      <div className="grid grid-cols-2 gap-2 md:grid-cols-[repeat(4,minmax(0,1fr))_auto] md:items-end">
        <div>
          <label htmlFor={ids.tool} className="mb-1 block text-xs font-medium text-zinc-400">
            Tool
          </label>
          <select id={ids.tool} value={tool} onChange={(e) => setTool(e.target.value)} className="input w-full py-2">
            <option value="">All tools</option>
            {Object.values(TOOLS).map((t) => (
              <option key={t.endpoint} value={t.endpoint}>
                {t.title}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.status} className="mb-1 block text-xs font-medium text-zinc-400">
            Status
          </label>
          <select id={ids.status} value={status} onChange={(e) => setStatus(ADMIN_JOB_STATUSES.find((s) => s === e.target.value) ?? '')} className="input w-full py-2">
            <option value="">Any status</option>
            {ADMIN_JOB_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS[s].label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.user} className="mb-1 block text-xs font-medium text-zinc-400">
            User
          </label>
          <input
            id={ids.user}
            type="search"
            value={userText}
            onChange={(e) => setUserText(e.target.value)}
            placeholder="E-mail or id"
            autoComplete="off"
            className="input w-full py-2"
          />
        </div>
        <div>
          <label htmlFor={ids.period} className="mb-1 block text-xs font-medium text-zinc-400">
            Started
          </label>
          <select id={ids.period} value={period} onChange={(e) => setPeriod(e.target.value as typeof period)} className="input w-full py-2">
            {PERIODS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        <RefreshButton onRefresh={q.refetch} busy={q.isRefetching} label="Refresh jobs" wide className="col-span-2 justify-self-end md:col-span-1" />
      </div>

      <QueryStates
        pending={q.isPending}
        error={items.length === 0 ? q.error : null}
        onRetry={() => void q.refetch()}
        failed="Could not load jobs"
        count={items.length}
        bar="h-16"
        empty={
          <div className="rounded-xl border border-dashed border-zinc-800 px-4 py-8 text-center">
            <ListChecks className="mx-auto size-8 text-zinc-700" aria-hidden="true" />
            <p className="mt-2 text-sm text-zinc-400">{filtered ? 'No jobs match these filters.' : 'No jobs yet.'}</p>
            {filtered && (
              <Button
                variant="secondary"
                size="sm"
                className="mt-3"
                onClick={() => {
                  setTool('');
                  setStatus('');
                  setUserText('');
                  setPeriod('all');
                }}
              >
                Clear filters
              </Button>
            )}
          </div>
        }
      >
        <>
          <ul className="divide-y divide-zinc-800/80 overflow-hidden rounded-xl border border-zinc-800" aria-label="Jobs">
            {items.map((job) => (
              <JobRow key={job.id} job={job} />
            ))}
          </ul>
          <LoadOlder query={q} failed="Could not load older jobs" />
        </>
      </QueryStates>
    </div>
  );
}

function JobRow({ job }: { job: AdminJob }) {
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: adminKeys.jobsAll });
    void qc.invalidateQueries({ queryKey: adminKeys.audit });
    void qc.invalidateQueries({ queryKey: adminKeys.summary });
  };
  const action = useMutation({
    mutationFn: (kind: 'retry' | 'cancel') =>
      call(
        kind === 'retry'
          ? client.POST('/api/admin/jobs/{id}/retry', { params: { path: { id: job.id } } })
          : client.POST('/api/admin/jobs/{id}/cancel', { params: { path: { id: job.id } } }),
      ),
    onSuccess: (_res, kind) => {
      toast.success(kind === 'retry' ? `${toolTitle(job.tool)} for ${job.user_email} runs again` : `Cancelled ${toolTitle(job.tool)} for ${job.user_email}; ENERGY refunded`);
      refresh();
    },
    onError: (err, kind) => toast.error(errorMessage(err, `Could not ${kind} the job: ${describeError(err)}`)),
  });
  const s = STATUS[job.status];
  const canRetry = job.status === 'failed' || job.status === 'canceled';
  const canCancel = job.status === 'queued' || job.status === 'running';

  return (
    <li className="flex flex-col gap-2 bg-zinc-950/40 px-3.5 py-3 text-sm sm:flex-row sm:items-start sm:justify-between" data-testid="admin-job">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2">
          <StatusPill tone={s.tone}>{s.label}</StatusPill>
          <span className="font-medium text-zinc-100">{toolTitle(job.tool)}</span>
          <span className="truncate text-zinc-400">{job.user_email}</span>
        </p>
        <p className="mt-1 text-xs text-zinc-400">
          <time dateTime={job.created_at}>{formatDateTime(job.created_at)}</time> · waited {duration(job.wait_ms)} · ran {duration(job.run_ms)} ·{' '}
          {job.provider ?? 'no provider yet'} · {job.cost === 0 ? 'free' : `${numberFormat.format(job.cost)} ENERGY`}
          {job.attempts > 1 ? ` · ${job.attempts} attempts` : ''}
        </p>
        {job.error && (
          <p className="mt-1 text-xs break-words text-red-300" data-testid="admin-job-error">
            {job.error_code && <code className="mr-1.5 rounded bg-red-500/10 px-1 py-0.5 text-[11px] text-red-200">{job.error_code}</code>}
            {job.error}
          </p>
        )}
      </div>
      {(canRetry || canCancel) && (
        <div className="flex shrink-0 gap-2">
          {canRetry && (
            <Button
              variant="secondary"
              size="sm"
              loading={action.isPending}
              aria-label={`Retry ${toolTitle(job.tool)} for ${job.user_email}`}
              onClick={() => {
                if (window.confirm(`Run ${toolTitle(job.tool)} again for ${job.user_email}? It is charged to them like their own retry.`)) action.mutate('retry');
              }}
            >
              {!action.isPending && <RotateCcw className="size-3.5" aria-hidden="true" />} Retry
            </Button>
          )}
          {canCancel && (
            <Button
              variant="secondary"
              size="sm"
              loading={action.isPending}
              aria-label={`Cancel ${toolTitle(job.tool)} for ${job.user_email}`}
              onClick={() => {
                if (window.confirm(`Cancel ${toolTitle(job.tool)} for ${job.user_email}? Their ENERGY is refunded.`)) action.mutate('cancel');
              }}
            >
              {!action.isPending && <Ban className="size-3.5" aria-hidden="true" />} Cancel
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
