import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Ban, ListChecks, RotateCcw } from 'lucide-react';
import { toast } from '../../lib/toast';
import { toolTitle, webTools } from '../tools/form/registry';
import { ADMIN_JOB_STATUSES, type AdminJob } from '../../../shared/admin-jobs.schema.js';
import { Button } from '../../components/Button';
import { LabeledInput } from '../../components/LabeledField';
import { LabeledSelect } from '../../components/LabeledSelect';
import { RefreshButton } from '../../components/RefreshButton';
import { PagedList } from '../../components/QueryStates';
import { useCursorPages } from '../../lib/useCursorPages';
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

const TOOL_OPTIONS = [{ value: '', label: 'All tools' }, ...webTools().map(({ info }) => ({ value: info.endpoint, label: info.title }))];
const STATUS_OPTIONS = [{ value: '' as const, label: 'Any status' }, ...ADMIN_JOB_STATUSES.map((s) => ({ value: s, label: STATUS[s].label }))];
const PERIOD_OPTIONS = PERIODS.map((p) => ({ value: p.id, label: p.label }));

function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/** GET /api/admin/jobs: every run, filtered by tool, status, user and time; retry and cancel one. */
export function JobsConsole() {
  const [tool, setTool] = useState('');
  const [status, setStatus] = useState<AdminJob['status'] | ''>('');
  const [userText, setUserText] = useState('');
  const [period, setPeriod] = useState<(typeof PERIODS)[number]['id']>('day');
  const user = useDebounced(userText.trim(), 300);

  const filters = { tool, status, user, period };
  const jobs = useCursorPages({
    queryKey: adminKeys.jobs(filters),
    fetchPage: (cursor) => {
      const span = PERIODS.find((p) => p.id === period)!.ms;
      const query = {
        limit: PAGE_SIZE,
        tool: tool || undefined,
        status: status || undefined,
        user: user || undefined,
        from: span ? new Date(Date.now() - span).toISOString() : undefined,
        cursor,
      };
      return call(client.GET('/api/admin/jobs', { params: { query } }));
    },
    staleTime: 5_000,
  });
  const q = jobs.query;
  const filtered = tool || status || user || period !== 'all';
  const clearFilters = () => {
    setTool('');
    setStatus('');
    setUserText('');
    setPeriod('all');
  };

  return (
    <div className="space-y-3">
      <div className="grid grid-cols-2 gap-2 md:grid-cols-[repeat(4,minmax(0,1fr))_auto] md:items-end">
        <LabeledSelect compact label="Tool" value={tool} onChange={setTool} options={TOOL_OPTIONS} />
        <LabeledSelect compact label="Status" value={status} onChange={setStatus} options={STATUS_OPTIONS} />
        <LabeledInput compact label="User" type="search" value={userText} onChange={setUserText} placeholder="E-mail or id" autoComplete="off" />
        <LabeledSelect compact label="Started" value={period} onChange={setPeriod} options={PERIOD_OPTIONS} />
        <RefreshButton onRefresh={q.refetch} busy={q.isRefetching} label="Refresh jobs" wide className="col-span-2 justify-self-end md:col-span-1" />
      </div>

      <PagedList
        pages={jobs}
        row={(job) => <JobRow key={job.id} job={job} />}
        label="Jobs"
        failed="Could not load jobs"
        olderFailed="Could not load older jobs"
        bar="h-16"
        empty={{
          icon: ListChecks,
          text: filtered ? 'No jobs match these filters.' : 'No jobs yet.',
          action: filtered && (
            <Button variant="secondary" size="sm" className="mt-3" onClick={clearFilters}>
              Clear filters
            </Button>
          ),
        }}
      />
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
