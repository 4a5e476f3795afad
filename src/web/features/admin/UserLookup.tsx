import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ban, Crown, Gift, ShieldCheck, Undo2, UserRound } from 'lucide-react';
import { toast } from '../../lib/toast';
import { ROLES, type Role } from '../../../shared/constants.js';
import { useUser } from '../../app/auth';
import { Button } from '../../components/Button';
import { LabeledInput } from '../../components/LabeledField';
import { LabeledSelect } from '../../components/LabeledSelect';
import { QueryStates } from '../../components/QueryStates';
import { SearchBox } from '../../components/SearchBox';
import { useDebounced } from '../../lib/useDebounced';
import { call, client, describeError, errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { adminKeys, formatDateTime, numberFormat, type AdminUser } from './adminApi';
import { StatusPill } from '../../components/StatusPill';

const RESULTS = 20;

const ROLE_LABEL: Record<Role, string> = { user: 'User', vip: 'VIP', admin: 'Admin' };
const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: ROLE_LABEL[r] }));

function RoleBadge({ role }: { role: Role }) {
  if (role === 'admin')
    return (
      <StatusPill tone="amber">
        <ShieldCheck className="size-3" aria-hidden="true" /> Admin
      </StatusPill>
    );
  if (role === 'vip')
    return (
      <StatusPill tone="fuchsia">
        <Crown className="size-3" aria-hidden="true" /> VIP
      </StatusPill>
    );
  return <StatusPill tone="zinc">User</StatusPill>;
}

/** GET /api/admin/users?query=: find an account, grant ENERGY, change its role. */
export function UserLookup() {
  const [text, setText] = useState('');
  const query = useDebounced(text.trim().toLowerCase(), 300);

  const q = useQuery({
    queryKey: adminKeys.users(query),
    queryFn: () => call(client.GET('/api/admin/users', { params: { query: { query, limit: RESULTS } } })),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const items = q.data?.items ?? [];

  return (
    <div className="space-y-3">
      <SearchBox label="Search accounts by e-mail or name" placeholder="Search by e-mail or name" value={text} onChange={setText} searching={q.isFetching && !q.isPending} />

      <QueryStates
        pending={q.isPending}
        error={q.error}
        onRetry={() => void q.refetch()}
        failed="Could not search accounts"
        count={items.length}
        bar="h-20"
        empty={
          <p className="rounded-xl border border-dashed border-zinc-800 px-4 py-6 text-center text-sm text-zinc-400">
            No accounts match “{query}”.
          </p>
        }
      >
        <>
          <ul className="space-y-2" aria-label="Accounts">
            {items.map((u) => (
              <UserRow key={u.id} user={u} />
            ))}
          </ul>
          {items.length >= RESULTS && <p className="text-center text-xs text-zinc-400">Showing the first {RESULTS} matches. Refine the search to narrow it down.</p>}
        </>
      </QueryStates>
    </div>
  );
}

function UserRow({ user }: { user: AdminUser }) {
  const me = useUser();
  const qc = useQueryClient();
  const isMe = user.id === me.id;
  const [amount, setAmount] = useState('');

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['admin', 'users'] });
    void qc.invalidateQueries({ queryKey: adminKeys.audit });
    void qc.invalidateQueries({ queryKey: adminKeys.summary });
  };

  const role = useMutation({
    mutationFn: (next: Role) => call(client.POST('/api/admin/users/{id}/role', { params: { path: { id: user.id } }, body: { role: next } })),
    onSuccess: (res) => {
      toast.success(`${user.email} is now ${ROLE_LABEL[res.role] ?? res.role}`);
      refresh();
    },
    onError: (err) => toast.error(errorMessage(err, `Could not change the role: ${describeError(err)}`)),
  });

  const grant = useMutation({
    mutationFn: (n: number) =>
      call(client.POST('/api/admin/users/{id}/grant', { params: { path: { id: user.id } }, body: { amount: n, reason: 'Granted by admin' } })),
    onSuccess: (res, n) => {
      toast.success(`Granted ${numberFormat.format(n)} ENERGY to ${user.email}. New balance: ${numberFormat.format(res.energy_balance)} ENERGY`);
      setAmount('');
      refresh();
      if (isMe) void qc.invalidateQueries({ queryKey: queryKeys.me });
    },
    onError: (err) => toast.error(errorMessage(err, `Could not grant ENERGY: ${describeError(err)}`)),
  });

  const suspension = useMutation({
    mutationFn: (suspend: boolean) => {
      const params = { path: { id: user.id } };
      return call(
        suspend
          ? client.POST('/api/admin/users/{id}/suspend', { params, body: {} })
          : client.POST('/api/admin/users/{id}/reinstate', { params }),
      );
    },
    onSuccess: (res) => {
      toast.success(
        res.suspended
          ? `${user.email} is suspended: ${res.sessions_ended} session${res.sessions_ended === 1 ? '' : 's'} ended, ${res.runs_cancelled} run${res.runs_cancelled === 1 ? '' : 's'} cancelled and refunded`
          : `${user.email} can sign in again`,
      );
      refresh();
    },
    onError: (err) => toast.error(errorMessage(err, `Could not change the suspension: ${describeError(err)}`)),
  });
  const suspended = user.suspended_at !== null;

  const grantAmount = /^\d+$/.test(amount.trim()) ? Number(amount.trim()) : NaN;
  const canGrant = Number.isInteger(grantAmount) && grantAmount >= 1 && grantAmount <= 1_000_000;

  return (
    <li
      className="flex flex-col gap-3 rounded-xl border border-zinc-800 bg-zinc-950/40 p-3.5 lg:flex-row lg:items-center lg:justify-between"
      data-testid="admin-user"
    >
      <div className="flex min-w-0 items-center gap-3">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-zinc-800 text-zinc-300">
          <UserRound className="size-4" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-white">
            <span className="truncate">{user.full_name || user.email}</span>
            <RoleBadge role={user.role} />
            {suspended && (
              <StatusPill tone="red">
                <Ban className="size-3" aria-hidden="true" /> Suspended
              </StatusPill>
            )}
            {isMe && <span className="text-xs text-zinc-400">(you)</span>}
          </p>
          <p className="truncate text-xs text-zinc-400">{user.email}</p>
          <p className="mt-0.5 text-xs text-zinc-400">
            <span className="font-semibold text-amber-300 tabular-nums">{numberFormat.format(user.energy_balance)}</span> ENERGY ·{' '}
            {numberFormat.format(user.total_energy_purchased)} purchased · joined {formatDateTime(user.created_at)}
            {user.energy_owed > 0 && (
              <>
                {' · '}
                <span className="font-semibold text-rose-300 tabular-nums" data-testid="admin-user-owed">
                  {numberFormat.format(user.energy_owed)} ENERGY owed
                </span>
              </>
            )}
          </p>
          {suspended && (
            <p className="mt-0.5 text-xs text-rose-300">
              Suspended {formatDateTime(user.suspended_at!)}
              {user.suspended_reason ? `: ${user.suspended_reason}` : ''}
            </p>
          )}
        </div>
      </div>
      <div className="grid shrink-0 grid-cols-1 items-end gap-2 sm:grid-cols-[7rem_minmax(0,1fr)] lg:flex">
        <LabeledSelect
          compact
          label="Role"
          value={user.role}
          options={ROLE_OPTIONS}
          disabled={isMe || role.isPending}
          title={isMe ? 'You cannot change your own role' : undefined}
          onChange={(next) => {
            if (next === 'admin' && !window.confirm(`Make ${user.email} an admin? Admins can change prices, roles and balances.`)) return;
            role.mutate(next);
          }}
          selectClassName="sm:w-28"
        />
        <form
          className="flex min-w-0 items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (canGrant) grant.mutate(grantAmount);
          }}
        >
          <LabeledInput
            compact
            label="Grant ENERGY"
            className="min-w-0 flex-1 lg:w-28 lg:flex-none"
            inputClassName="tabular-nums"
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            placeholder="Amount"
            value={amount}
            onChange={setAmount}
          />
          <Button type="submit" variant="secondary" disabled={!canGrant} loading={grant.isPending} className="py-2">
            {!grant.isPending && <Gift className="size-4" aria-hidden="true" />} Grant
          </Button>
        </form>
        {!isMe && (
          <Button
            variant="secondary"
            loading={suspension.isPending}
            className="py-2"
            onClick={() => {
              if (
                !suspended &&
                !window.confirm(`Suspend ${user.email}? They are signed out everywhere, their API keys stop and their unfinished runs are cancelled and refunded.`)
              )
                return;
              suspension.mutate(!suspended);
            }}
          >
            {!suspension.isPending && (suspended ? <Undo2 className="size-4" aria-hidden="true" /> : <Ban className="size-4" aria-hidden="true" />)}
            {suspended ? 'Reinstate' : 'Suspend'}
          </Button>
        )}
      </div>
    </li>
  );
}
