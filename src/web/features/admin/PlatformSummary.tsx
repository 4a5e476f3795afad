import type { ComponentType, ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Activity, BarChart3, Coins, DollarSign, RotateCw, Users, Zap } from 'lucide-react';
import clsx from 'clsx';
import { call, client, describeError } from '../../lib/api';
import { usePricing } from '../../lib/usePricing';
import { Button } from '../../components/Button';
import { adminKeys, formatDateTime, money, numberFormat } from './adminApi';
import { Panel } from '../../components/Panel';
import { ErrorBox } from '../../components/ErrorBox';
import { Skeleton } from '../../components/Skeleton';

function Stat({
  label,
  value,
  sub,
  icon: Icon,
  tone,
}: {
  label: string;
  value: ReactNode;
  sub?: ReactNode;
  icon: ComponentType<{ className?: string }>;
  tone: string;
}) {
  return (
    <div className="min-w-0 rounded-xl border border-zinc-800 bg-zinc-950/50 p-3.5">
      <div className="flex items-center gap-2 text-xs font-medium text-zinc-400">
        <span className={clsx('flex size-6 items-center justify-center rounded-md', tone)}>
          <Icon className="size-3.5" aria-hidden="true" />
        </span>
        {label}
      </div>
      <p className="mt-2 text-2xl font-bold wrap-anywhere tracking-tight text-white tabular-nums">{value}</p>
      {/* Wraps rather than cuts off ('0 gra…') in a phone's half-width card. */}
      {sub && <p className="mt-0.5 text-xs text-pretty text-zinc-400">{sub}</p>}
    </div>
  );
}

/** GET /api/admin/summary: accounts, ENERGY sold and spent, revenue, runs per tool. */
export function PlatformSummary({ className }: { className?: string }) {
  const q = useQuery({
    queryKey: adminKeys.summary,
    queryFn: () => call(client.GET('/api/admin/summary')),
    staleTime: 30_000,
  });
  // Runs are counted by price row; the rows name themselves.
  const pricing = usePricing();
  const s = q.data;
  const maxRuns = Math.max(1, ...(s?.runs_by_tool.map((r) => r.runs) ?? [1]));

  return (
    <Panel
      id="admin-summary-title"
      title="Platform summary"
      description={s ? `Updated ${formatDateTime(s.generated_at)}` : 'Accounts, ENERGY and revenue at a glance'}
      icon={BarChart3}
      className={className}
      actions={
        <Button variant="secondary" size="sm" onClick={() => void q.refetch()} loading={q.isFetching} aria-label="Refresh platform summary">
          {!q.isFetching && <RotateCw className="size-3.5" aria-hidden="true" />} Refresh
        </Button>
      }
    >
      {q.isPending ? (
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-24" />
          ))}
        </div>
      ) : q.isError ? (
        <ErrorBox onRetry={() => void q.refetch()}>Could not load the platform summary: {describeError(q.error)}</ErrorBox>
      ) : (
        <div className="space-y-5">
          <div className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="platform-summary">
            <Stat
              label="Accounts"
              value={numberFormat.format(s!.accounts)}
              sub={`${numberFormat.format(s!.vip_accounts)} VIP · ${numberFormat.format(s!.admin_accounts)} admin`}
              icon={Users}
              tone="bg-violet-500/15 text-violet-300"
            />
            <Stat
              label="ENERGY sold"
              value={numberFormat.format(s!.energy_sold)}
              sub={`${numberFormat.format(s!.purchases)} purchase${s!.purchases === 1 ? '' : 's'}`}
              icon={Zap}
              tone="bg-amber-400/15 text-amber-300"
            />
            <Stat
              label="ENERGY spent"
              value={numberFormat.format(s!.energy_spent)}
              sub={`${numberFormat.format(s!.energy_refunded)} refunded · ${numberFormat.format(s!.energy_granted)} granted`}
              icon={Activity}
              tone="bg-fuchsia-500/15 text-fuchsia-300"
            />
            <Stat
              label="Revenue"
              value={money.format(s!.revenue_cents / 100)}
              sub={`${numberFormat.format(s!.energy_in_balances)} ENERGY in balances`}
              icon={DollarSign}
              tone="bg-emerald-500/15 text-emerald-300"
            />
          </div>

          <div>
            <h4 className="mb-2 flex items-center gap-1.5 text-xs font-semibold tracking-wider text-zinc-400 uppercase">
              <Coins className="size-3.5" aria-hidden="true" /> Runs by tool
            </h4>
            {s!.runs_by_tool.length === 0 ? (
              <p className="rounded-xl border border-dashed border-zinc-800 px-4 py-5 text-center text-sm text-zinc-400">No tool runs yet.</p>
            ) : (
              <ul className="space-y-2" aria-label="Runs by tool">
                {s!.runs_by_tool.map((r) => (
                  <li key={r.tool_name} className="rounded-lg bg-zinc-950/40 px-3 py-2">
                    <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
                      <span className="font-medium text-zinc-200">{pricing.nameOf(r.tool_name)}</span>
                      <span className="text-xs text-zinc-400 tabular-nums">
                        <strong className="text-zinc-100">{numberFormat.format(r.runs)}</strong> {r.runs === 1 ? 'run' : 'runs'}
                        {r.refunded_runs > 0 && <> · {numberFormat.format(r.refunded_runs)} refunded</>} ·{' '}
                        {numberFormat.format(r.energy_spent)} ENERGY
                      </span>
                    </div>
                    <div className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-zinc-800" aria-hidden="true">
                      <div className="h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500" style={{ width: `${(r.runs / maxRuns) * 100}%` }} />
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
    </Panel>
  );
}
