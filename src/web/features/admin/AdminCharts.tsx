import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Activity, BatteryCharging } from 'lucide-react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CHART_DAYS } from '../../../shared/admin-jobs.schema.js';
import { call, client, describeError } from '../../lib/api';
import { adminKeys, numberFormat } from './adminApi';
import { toolTitle } from '../tools/form/registry';
import { Panel } from '../../components/Panel';
import { ErrorBox } from '../../components/ErrorBox';
import { Skeleton } from '../../components/Skeleton';

/**
 * The admin dashboard's charts (loaded on their own, after the rest of the dashboard): ENERGY sold vs
 * spent per day, and runs and failures per tool per day. Each chart has a text summary for screen
 * readers and its numbers in a table under "Show the numbers".
 */

interface Series {
  label: string;
  color: string;
  values: number[];
}

const RANGES = [7, CHART_DAYS.default, CHART_DAYS.max] as const;
const AXIS = { stroke: '#a1a1aa', grid: { stroke: '#27272a', width: 1 }, ticks: { stroke: '#3f3f46', width: 1 }, font: '11px ui-sans-serif, system-ui, sans-serif' };
const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000];
const dayLabel = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const total = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** One uPlot chart that follows its container's width. */
function LineChart({ days, series, label }: { days: string[]; series: Series[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const x = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 240),
        height: 220,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
        axes: [
          { ...AXIS, values: (_u, ticks) => ticks.map((t) => dayLabel(new Date(t * 1000).toISOString().slice(0, 10))) },
          // Whole numbers only: these are counts and ENERGY.
          { ...AXIS, size: 56, incrs: WHOLE_STEPS, values: (_u, ticks) => ticks.map((t) => numberFormat.format(t)) },
        ],
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: days.length <= 31, size: 5, fill: s.color } }))],
      },
      [x, ...series.map((s) => s.values)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 240), height: 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series]);
  return (
    <div>
      <div ref={box} role="img" aria-label={label} className="w-full overflow-hidden" />
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-300" aria-hidden="true">
        {series.map((s) => (
          <li key={s.label} className="inline-flex items-center gap-1.5">
            <span className="size-2.5 rounded-full" style={{ backgroundColor: s.color }} />
            {s.label}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The chart's numbers as a table, folded away. */
function Numbers({ days, series, caption }: { days: string[]; series: Series[]; caption: string }) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer text-zinc-400 hover:text-zinc-200">Show the numbers</summary>
      <div className="mt-2 max-h-64 overflow-auto">
        <table className="w-full text-left text-xs">
          <caption className="sr-only">{caption}</caption>
          <thead className="text-zinc-400">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                Day (UTC)
              </th>
              {series.map((s) => (
                <th key={s.label} scope="col" className="py-1 pr-3 text-right font-medium">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-800/80 text-zinc-200">
            {days.map((day, i) => (
              <tr key={day}>
                <th scope="row" className="py-1 pr-3 font-normal">
                  {dayLabel(day)}
                </th>
                {series.map((s) => (
                  <td key={s.label} className="py-1 pr-3 text-right tabular-nums">
                    {numberFormat.format(s.values[i] ?? 0)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/** One chart with its numbers, or its placeholder or error while the charts' data is not there. */
function Chart({
  q,
  series,
  label,
  caption,
}: {
  q: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown; data?: { days: string[] } };
  series: Series[];
  /** The screen-reader summary, given the number of days shown. */
  label: (days: number) => string;
  caption: string;
}) {
  if (q.isPending) return <Skeleton className="h-56" />;
  if (q.isError || !q.data) return <ErrorBox onRetry={() => void q.refetch()}>Could not load the charts: {describeError(q.error)}</ErrorBox>;
  return (
    <>
      <LineChart days={q.data.days} series={series} label={label(q.data.days.length)} />
      <Numbers days={q.data.days} series={series} caption={caption} />
    </>
  );
}

const selectClass = 'rounded-lg border border-zinc-700 bg-zinc-900 px-2.5 py-1.5 text-sm text-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400';

export default function AdminCharts() {
  const [days, setDays] = useState<number>(CHART_DAYS.default);
  const [tool, setTool] = useState('all');
  const q = useQuery({
    queryKey: adminKeys.charts(days), queryFn: () => call(client.GET('/api/admin/charts', { params: { query: { days } } })),
    refetchInterval: 5 * 60_000,
    // Another period keeps the charts (and an open table) on screen until its numbers arrive.
    placeholderData: (previous) => previous,
  });

  const energy = useMemo<Series[]>(
    () => (q.data ? [{ label: 'ENERGY sold', color: '#f59e0b', values: q.data.energy.sold }, { label: 'ENERGY spent', color: '#38bdf8', values: q.data.energy.spent }] : []),
    [q.data],
  );
  const runs = useMemo<Series[]>(() => {
    if (!q.data) return [];
    const picked = tool === 'all' ? q.data.tools : q.data.tools.filter((t) => t.tool === tool);
    const sum = (key: 'runs' | 'failed') => q.data.days.map((_, i) => picked.reduce((n, t) => n + (t[key][i] ?? 0), 0));
    return [
      { label: 'Runs', color: '#34d399', values: sum('runs') },
      { label: 'Failed', color: '#f87171', values: sum('failed') },
    ];
  }, [q.data, tool]);

  const range = (
    <div className="flex items-center gap-2 text-sm text-zinc-400">
      <label htmlFor="chart-period">Period</label>
      <select id="chart-period" className={selectClass} value={days} onChange={(e) => setDays(Number(e.target.value))}>
        {RANGES.map((n) => (
          <option key={n} value={n}>
            Last {n} days
          </option>
        ))}
      </select>
    </div>
  );
  const toolName = tool === 'all' ? 'all tools' : toolTitle(tool);

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Panel id="chart-energy-title" title="ENERGY sold vs spent" description="Per day (UTC); spent is net of refunds for failed or cancelled runs." icon={BatteryCharging} className="min-w-0">
        <div className="mb-3 flex justify-end">{range}</div>
        <Chart
          q={q}
          series={energy}
          label={(n) => `ENERGY per day over the last ${n} days: ${numberFormat.format(total(energy[0]!.values))} sold, ${numberFormat.format(total(energy[1]!.values))} spent.`}
          caption="ENERGY sold and spent per day"
        />
      </Panel>
      <Panel
        id="chart-runs-title"
        title="Runs and failures per tool"
        description="Runs that ended per day (UTC); cancelled runs are not counted."
        icon={Activity}
        className="min-w-0"
      >
        <div className="mb-3 flex justify-end">
          <div className="flex items-center gap-2 text-sm text-zinc-400">
            <label htmlFor="chart-tool">Tool</label>
            <select id="chart-tool" className={selectClass} value={tool} onChange={(e) => setTool(e.target.value)}>
              <option value="all">All tools</option>
              {(q.data?.tools ?? []).map((t) => (
                <option key={t.tool} value={t.tool}>
                  {toolTitle(t.tool)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <Chart
          q={q}
          series={runs}
          label={(n) => `Runs of ${toolName} per day over the last ${n} days: ${numberFormat.format(total(runs[0]!.values))} runs, ${numberFormat.format(total(runs[1]!.values))} failed.`}
          caption={`Runs and failures of ${toolName} per day`}
        />
      </Panel>
    </div>
  );
}
