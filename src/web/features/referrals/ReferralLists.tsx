import { useId, useState, type ComponentType, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, Filter, Search, UserPlus, Users } from 'lucide-react';
import { REFERRALS_SHOWN } from '../../../shared/constants.js';
import type { InviteStatus, Referral } from '../../../shared/invites.js';
import type { CountedPage } from '../../../shared/page.schema.js';
import { Button } from '../../components/Button';
import { LabeledField } from '../../components/LabeledField';
import { LabeledSelect } from '../../components/LabeledSelect';
import { RefreshButton } from '../../components/RefreshButton';
import { QueryStates } from '../../components/QueryStates';
import { useDebounced } from '../../lib/useDebounced';
import { call, client } from '../../lib/api';
import { Panel } from '../../components/Panel';
import { InviteItem } from './MyInvites';
import { formatDateTime, referralKeys } from './referralsApi';

const PAGE_SIZE = 25;

/** Runs `reset` during render when `key` changes (a new filter starts at the first page). */
function useResetOnChange(key: string, reset: () => void) {
  const [seen, setSeen] = useState(key);
  if (seen !== key) {
    setSeen(key);
    reset();
  }
}

function initials(name: string, email: string): string {
  const source = name.trim() || email;
  return source.slice(0, 1).toUpperCase();
}

/** One account that joined with a code; `referrer` (the admin list) names who invited it. */
function ReferralRow({ r, referrer }: { r: Referral; referrer?: { name: string; email: string } }) {
  return (
    <li className="flex items-center gap-3 px-3.5 py-3 sm:px-4" data-testid="referral-item">
      <span
        aria-hidden="true"
        className="flex size-9 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-emerald-500/30 to-sky-500/20 text-sm font-bold text-emerald-200"
      >
        {initials(r.referred_name, r.referred_email)}
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-white">{r.referred_name || r.referred_email}</p>
        <p className="truncate text-xs text-zinc-400">{r.referred_email}</p>
        {referrer && (
          <p className="mt-0.5 truncate text-xs text-zinc-400">
            Invited by {referrer.name || referrer.email} <span className="text-zinc-600">({referrer.email})</span>
          </p>
        )}
      </div>
      <div className="shrink-0 text-right">
        <code className="rounded-md bg-zinc-800/80 px-1.5 py-0.5 font-mono text-xs font-semibold tracking-wider text-zinc-200">{r.invite_code}</code>
        <p className="mt-1 text-[11px] text-zinc-400">
          <time dateTime={r.created_at}>{formatDateTime(r.created_at)}</time>
        </p>
      </div>
    </li>
  );
}

/** requirements §2/§9: my referrals, newest first, at most 10 shown, with the count of all. */
export function MyReferrals() {
  const q = useQuery({
    queryKey: referralKeys.referrals,
    queryFn: () => call(client.GET('/api/referrals')),
    refetchInterval: 30_000,
    refetchOnWindowFocus: true,
  });
  const items = (q.data?.items ?? []).slice(0, REFERRALS_SHOWN);
  const total = q.data?.total ?? 0;

  return (
    <Panel
      id="my-referrals-title"
      title={
        <span className="flex items-center gap-2">
          Your referrals
          {q.data && (
            <span className="rounded-full bg-emerald-500/15 px-2 py-0.5 text-xs font-bold text-emerald-300 tabular-nums" data-testid="referral-count">
              {total}
            </span>
          )}
        </span>
      }
      description={
        total > items.length ? `The ${items.length} most recent of ${total} people who joined with your codes` : 'People who joined with your codes'
      }
      icon={Users}
      actions={
        <RefreshButton onRefresh={q.refetch} busy={q.isRefetching} label="Refresh referrals" />
      }
      bodyClassName=""
    >
      <QueryStates
        pending={q.isPending}
        error={q.error}
        onRetry={() => void q.refetch()}
        failed="Could not load your referrals"
        count={items.length}
        bar="h-12"
        bars={2}
        inset
        empty={
          <div className="px-4 py-10 text-center">
            <UserPlus className="mx-auto size-9 text-zinc-700" aria-hidden="true" />
            <p className="mt-2 text-sm font-medium text-zinc-300">No referrals yet</p>
            <p className="mt-1 text-xs text-zinc-400">When someone creates an account with your code, they show up here.</p>
          </div>
        }
      >
        <ul className="divide-y divide-zinc-800/80" aria-label="Referrals">
          {items.map((r) => (
            <ReferralRow key={r.id} r={r} />
          ))}
        </ul>
      </QueryStates>
    </Panel>
  );
}

/** The cursors of the pages visited: Next adds the page's next_cursor, Previous goes back one. */
function useCursorTrail() {
  const [trail, setTrail] = useState<string[]>([]);
  return {
    cursor: trail.at(-1),
    pageIndex: trail.length,
    next: (cursor: string) => setTrail((t) => [...t, cursor]),
    previous: () => setTrail((t) => t.slice(0, -1)),
    reset: () => setTrail([]),
  };
}

type CursorTrail = ReturnType<typeof useCursorTrail>;

/**
 * One page of an admin list at a time, Previous and Next moving through them; a new filter starts
 * again at the first page. Empty filter values are not sent.
 */
function useAdminPages<T, F extends Record<string, string>>(
  filter: F,
  queryKey: (filterAndCursor: F & { cursor: string }) => readonly unknown[],
  fetchPage: (query: { limit: number; cursor?: string } & Partial<F>) => Promise<CountedPage<T>>,
) {
  const trail = useCursorTrail();
  useResetOnChange(Object.values(filter).join('|'), trail.reset);
  const query = useQuery({
    queryKey: queryKey({ ...filter, cursor: trail.cursor ?? '' }),
    queryFn: () => {
      const set = Object.fromEntries(Object.entries(filter).filter(([, value]) => value)) as Partial<F>;
      return fetchPage({ limit: PAGE_SIZE, cursor: trail.cursor, ...set });
    },
    placeholderData: keepPreviousData,
  });
  return { query, trail };
}

function Pager({ trail, page, busy }: { trail: CursorTrail; page: CountedPage<unknown> | undefined; busy: boolean }) {
  if (!page || page.total === 0) return null;
  const from = trail.pageIndex * PAGE_SIZE + 1;
  const to = from - 1 + page.items.length;
  const nextCursor = page.next_cursor;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 border-t border-zinc-800 px-4 py-3 text-xs text-zinc-400">
      <span aria-live="polite">
        Showing <strong className="text-zinc-200">{from}</strong>–<strong className="text-zinc-200">{to}</strong> of{' '}
        <strong className="text-zinc-200">{page.total}</strong>
      </span>
      <span className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={trail.pageIndex === 0 || busy} onClick={trail.previous}>
          <ChevronLeft className="size-3.5" aria-hidden="true" /> Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={!nextCursor || busy} onClick={() => nextCursor && trail.next(nextCursor)}>
          Next <ChevronRight className="size-3.5" aria-hidden="true" />
        </Button>
      </span>
    </div>
  );
}

/** An admin list in its panel: the filters over it, its rows (`row`, each an `li`) page by page, the pager under it. */
function AdminListPanel<T>({
  pages: { query, trail },
  filters,
  failed,
  bar,
  emptyText,
  listClassName,
  row,
  ...panel
}: {
  id: string;
  title: string;
  description: string;
  icon: ComponentType<{ className?: string }>;
  pages: ReturnType<typeof useAdminPages<T, Record<string, string>>>;
  filters: ReactNode;
  failed: string;
  bar: string;
  emptyText: string;
  listClassName: string;
  row: (item: T) => ReactNode;
}) {
  const items = query.data?.items ?? [];
  return (
    <Panel {...panel} bodyClassName="" actions={<RefreshButton onRefresh={query.refetch} busy={query.isFetching} label={`Refresh ${panel.title.toLowerCase()}`} />}>
      <div className="flex flex-col gap-3 border-b border-zinc-800 p-4 sm:flex-row sm:items-end">{filters}</div>
      <QueryStates
        pending={query.isPending}
        error={query.error}
        onRetry={() => void query.refetch()}
        failed={failed}
        count={items.length}
        bar={bar}
        bars={2}
        inset
        empty={<p className="px-4 py-10 text-center text-sm text-zinc-400">{emptyText}</p>}
      >
        <ul className={listClassName} aria-label={panel.title}>
          {items.map(row)}
        </ul>
      </QueryStates>
      <Pager trail={trail} page={query.data} busy={query.isFetching} />
    </Panel>
  );
}

function FilterInput({ label, value, onChange, placeholder, mono }: { label: string; value: string; onChange: (v: string) => void; placeholder: string; mono?: boolean }) {
  const id = useId();
  return (
    <LabeledField id={id} label={label} compact className="min-w-0 flex-1">
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-3.5 -translate-y-1/2 text-zinc-400" aria-hidden="true" />
        <input
          id={id}
          type="search"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={placeholder}
          autoComplete="off"
          className={`input py-2 pl-8 ${mono ? 'font-mono uppercase placeholder:font-sans placeholder:normal-case' : ''}`}
        />
      </div>
    </LabeledField>
  );
}

const STATUS_OPTIONS: { value: '' | InviteStatus; label: string }[] = [
  { value: '', label: 'All statuses' },
  ...(['Active', 'Exhausted', 'Expired', 'Inactive'] as const).map((s) => ({ value: s, label: s })),
];

/** Admin: every invite on the platform, filtered by status, inviter e-mail and code; paged. */
export function AdminInvites() {
  const [status, setStatus] = useState<'' | InviteStatus>('');
  const [inviter, setInviter] = useState('');
  const [code, setCode] = useState('');
  const pages = useAdminPages(
    { status, inviter: useDebounced(inviter.trim()), code: useDebounced(code.trim()) },
    referralKeys.adminInvites,
    (query) => call(client.GET('/api/admin/invites', { params: { query: { ...query, status: query.status || undefined } } })),
  );

  return (
    <AdminListPanel
      id="admin-invites-title"
      title="All invite codes"
      description="Every code on the platform, newest first"
      icon={Filter}
      pages={pages}
      filters={
        <>
          <LabeledSelect compact label="Status" className="sm:w-40" value={status} onChange={setStatus} options={STATUS_OPTIONS} />
          <FilterInput label="Inviter e-mail" value={inviter} onChange={setInviter} placeholder="name@example.com" />
          <FilterInput label="Code" value={code} onChange={setCode} placeholder="Part of a code" mono />
        </>
      }
      failed="Could not load invite codes"
      bar="h-20"
      emptyText="No invite codes match these filters."
      listClassName="space-y-2.5 p-4"
      row={(i) => <InviteItem key={i.id} invite={i} readOnly inviter={{ name: i.inviter_name, email: i.inviter_email }} />}
    />
  );
}

/** Admin: every referral on the platform, filtered by e-mail (either side) and code; paged. */
export function AdminReferrals() {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const pages = useAdminPages({ email: useDebounced(email.trim()), code: useDebounced(code.trim()) }, referralKeys.adminReferrals, (query) =>
    call(client.GET('/api/admin/referrals', { params: { query } })),
  );

  return (
    <AdminListPanel
      id="admin-referrals-title"
      title="All referrals"
      description="Every account created with an invite code, newest first"
      icon={Users}
      pages={pages}
      filters={
        <>
          <FilterInput label="E-mail (inviter or new account)" value={email} onChange={setEmail} placeholder="name@example.com" />
          <FilterInput label="Code" value={code} onChange={setCode} placeholder="Part of a code" mono />
        </>
      }
      failed="Could not load referrals"
      bar="h-12"
      emptyText="No referrals match these filters."
      listClassName="divide-y divide-zinc-800/80"
      row={(r) => <ReferralRow key={r.id} r={r} referrer={{ name: r.referrer_name, email: r.referrer_email }} />}
    />
  );
}
