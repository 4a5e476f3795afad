import { ArrowRight, History } from 'lucide-react';
import { RefreshButton } from '../../components/RefreshButton';
import { PagedList } from '../../components/QueryStates';
import { call, client } from '../../lib/api';
import { useCursorPages } from '../../lib/useCursorPages';
import { adminKeys, formatDateTime, numberFormat, type AuditEntry } from './adminApi';
import { StatusPill } from '../../components/StatusPill';
import { usePricing } from '../../lib/usePricing';

const PAGE_SIZE = 20;

const ACTIONS: Record<string, { label: string; tone: 'emerald' | 'amber' | 'sky' | 'fuchsia' | 'zinc' }> = {
  update_tool_pricing: { label: 'Tool pricing', tone: 'fuchsia' },
  update_plan_energy: { label: 'Plan energy', tone: 'amber' },
  set_referral_only: { label: 'Registration', tone: 'sky' },
  set_welcome_energy: { label: 'Welcome grant', tone: 'emerald' },
  grant_energy: { label: 'ENERGY grant', tone: 'emerald' },
  set_role: { label: 'Role', tone: 'zinc' },
  retry_job: { label: 'Job retried', tone: 'sky' },
  cancel_job: { label: 'Job cancelled', tone: 'amber' },
  refund_purchase: { label: 'Refund', tone: 'amber' },
};

const FIELD_LABELS: Record<string, string> = {
  base_energy_cost: 'Base cost',
  discount_percentage: 'Discount',
  energy_amount: 'Energy',
  bonus_energy: 'Bonus',
  is_referral_only: 'Referral-only',
  welcome_energy: 'Welcome grant',
  energy_balance: 'Balance',
  role: 'Role',
  status: 'Status',
  refunded_cents: 'Refunded (cents)',
  payment_intent_id: 'Payment',
  reason: 'Reason',
};

function show(key: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (key === 'discount_percentage' && typeof value === 'number') return `${value}%`;
  if (key === 'is_referral_only') return value ? 'on' : 'off';
  if (typeof value === 'number') return numberFormat.format(value);
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function targetLabel(e: AuditEntry, priceRowName: (key: string) => string): string {
  if (e.action === 'update_tool_pricing') return priceRowName(e.target);
  if (e.action === 'set_referral_only') return 'Referral-only mode';
  if (e.action === 'set_welcome_energy') return 'New accounts';
  if (e.action === 'grant_energy' || e.action === 'set_role') return `User ${e.target.slice(0, 8)}`;
  if (e.action === 'retry_job' || e.action === 'cancel_job') return `Job ${e.target.slice(0, 8)}`;
  return e.target;
}

/** The fields that changed, old -> new. */
function Changes({ entry }: { entry: AuditEntry }) {
  const oldV = (entry.old_value && typeof entry.old_value === 'object' ? entry.old_value : {}) as Record<string, unknown>;
  const newV = (entry.new_value && typeof entry.new_value === 'object' ? entry.new_value : {}) as Record<string, unknown>;
  const keys = Object.keys(FIELD_LABELS).filter((k) => k in newV && (!(k in oldV) || oldV[k] !== newV[k]));
  const extra =
    entry.action === 'grant_energy'
      ? [typeof newV.amount === 'number' ? `+${numberFormat.format(newV.amount)} ENERGY` : null, typeof newV.reason === 'string' ? newV.reason : null].filter(Boolean)
      : [];
  if (keys.length === 0 && extra.length === 0) return <span className="text-zinc-400">No visible change</span>;
  return (
    <span className="flex flex-wrap gap-x-4 gap-y-1">
      {keys.map((k) => (
        <span key={k} className="inline-flex items-center gap-1.5">
          <span className="text-zinc-400">{FIELD_LABELS[k]}</span>
          <span className="text-zinc-400 tabular-nums line-through decoration-zinc-600">{show(k, oldV[k])}</span>
          <ArrowRight className="size-3 text-zinc-400" aria-label="to" />
          <span className="font-semibold text-white tabular-nums">{show(k, newV[k])}</span>
        </span>
      ))}
      {extra.map((x) => (
        <span key={x} className="text-zinc-400">
          {x}
        </span>
      ))}
    </span>
  );
}

/** GET /api/admin/audit: who changed what, when, old -> new; newest first, paged. */
export function AuditLog() {
  const changes = useCursorPages({
    queryKey: adminKeys.audit,
    fetchPage: (cursor) => call(client.GET('/api/admin/audit', { params: { query: { limit: PAGE_SIZE, cursor } } })),
    staleTime: 15_000,
  });

  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-zinc-400">Every change to prices, plans, registration, roles, grants and refunds.</p>
        <RefreshButton onRefresh={changes.query.refetch} busy={changes.query.isRefetching} label="Refresh change history" />
      </div>
      <PagedList
        pages={changes}
        row={(e) => <AuditRow key={e.id} entry={e} />}
        label="Admin change history"
        failed="Could not load the change history"
        olderFailed="Could not load older changes"
        bar="h-14"
        empty={{ icon: History, text: 'No admin changes yet.' }}
      />
    </div>
  );
}

function AuditRow({ entry: e }: { entry: AuditEntry }) {
  const pricing = usePricing();
  const action = ACTIONS[e.action] ?? { label: e.action, tone: 'zinc' as const };
  return (
    <li className="bg-zinc-950/40 px-3.5 py-3 text-sm" data-testid="audit-entry">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <span className="flex min-w-0 flex-wrap items-center gap-2">
          <StatusPill tone={action.tone}>{action.label}</StatusPill>
          <span className="font-medium text-zinc-100">{targetLabel(e, pricing.nameOf)}</span>
        </span>
        <time dateTime={e.created_at} className="text-xs text-zinc-400">
          {formatDateTime(e.created_at)}
        </time>
      </div>
      <div className="mt-1.5 text-xs">
        <Changes entry={e} />
      </div>
      <p className="mt-1 truncate text-xs text-zinc-400">by {e.admin_email ?? 'a removed account'}</p>
    </li>
  );
}
