import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertDialog } from 'radix-ui';
import { Ban, CalendarClock, KeyRound, Plus, Ticket, Users } from 'lucide-react';
import { toast } from '../../lib/toast';
import clsx from 'clsx';
import {
  INVITE_DEFAULT_EXPIRY_DAYS,
  INVITE_DEFAULT_MAX_USES,
  INVITE_MAX_EXPIRY_DAYS,
  INVITE_MAX_USES_LIMIT,
  inviteStatus,
  type Invite,
} from '../../../shared/invites.js';
import { inviteMessages } from '../../../shared/invites.messages.js';
import { Button } from '../../components/Button';
import { LabeledInput } from '../../components/LabeledField';
import { QueryStates } from '../../components/QueryStates';
import { RefreshButton } from '../../components/RefreshButton';
import { call, client, errorMessage } from '../../lib/api';
import { Panel } from '../../components/Panel';
import { StatusPill } from '../../components/StatusPill';
import { SuccessBox } from '../../components/SuccessBox';
import { ErrorBox } from '../../components/ErrorBox';
import { CopyButton } from './CopyButton';
import { formatDate, referralKeys, STATUS_TONE } from './referralsApi';

function wholeAtLeastOne(text: string, max: number): number | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return n >= 1 && n <= max ? n : undefined;
}

/** A whole number typed into a field, marked while it is not one from 1 to `max`. */
function WholeNumberField({ label, max, value, onChange, invalid }: { label: string; max: number; value: string; onChange: (v: string) => void; invalid: boolean }) {
  return (
    <LabeledInput label={label} type="number" inputMode="numeric" min={1} max={max} step={1} value={value} onChange={onChange} invalid={invalid} inputClassName="tabular-nums" />
  );
}

/** requirements §2: generate an invite code (max uses >= 1, default 1; expiry days >= 1, default 30). */
export function GenerateInvite() {
  const qc = useQueryClient();
  const [uses, setUses] = useState(String(INVITE_DEFAULT_MAX_USES));
  const [days, setDays] = useState(String(INVITE_DEFAULT_EXPIRY_DAYS));
  const [created, setCreated] = useState<Invite | null>(null);
  const [error, setError] = useState<string | null>(null);

  const maxUses = wholeAtLeastOne(uses, INVITE_MAX_USES_LIMIT);
  const expiryDays = wholeAtLeastOne(days, INVITE_MAX_EXPIRY_DAYS);

  const generate = useMutation({
    mutationFn: (body: { max_uses: number; expires_in_days: number }) => call(client.POST('/api/invites', { body })),
    onMutate: () => {
      setError(null);
      setCreated(null);
    },
    onSuccess: (res) => {
      setCreated(res.invite);
      toast.success(inviteMessages.generated(res.invite.invite_code));
      qc.setQueryData<{ items: Invite[] }>(referralKeys.invites, (old) =>
        old ? { items: [res.invite, ...old.items.filter((i) => i.id !== res.invite.id)] } : old,
      );
      void qc.invalidateQueries({ queryKey: referralKeys.all });
    },
    onError: (err) => {
      const msg = errorMessage(err, inviteMessages.generateFailed);
      setError(msg);
      toast.error(msg);
    },
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (maxUses === undefined) return setError(inviteMessages.maxUsesInvalid);
    if (expiryDays === undefined) return setError(inviteMessages.expiryInvalid);
    generate.mutate({ max_uses: maxUses, expires_in_days: expiryDays });
  };

  return (
    <Panel id="invite-generate-title" title="Generate invite code" description="Share a code so a friend can create an account." icon={Plus}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <div className="grid grid-cols-2 gap-3">
          <WholeNumberField label="Max uses" max={INVITE_MAX_USES_LIMIT} value={uses} onChange={setUses} invalid={maxUses === undefined} />
          <WholeNumberField label="Expires in (days)" max={INVITE_MAX_EXPIRY_DAYS} value={days} onChange={setDays} invalid={expiryDays === undefined} />
        </div>
        <Button type="submit" loading={generate.isPending} className="w-full">
          {!generate.isPending && <KeyRound className="size-4" aria-hidden="true" />} Generate Invite Code
        </Button>
      </form>
      {error && <ErrorBox className="mt-4">{error}</ErrorBox>}
      {created && (
        <SuccessBox className="mt-4">
          <span className="block" data-testid="generated-message">
            {inviteMessages.generated(created.invite_code)}
          </span>
          <span className="mt-2 flex flex-wrap items-center gap-2">
            <code className="rounded-lg bg-zinc-950/70 px-2.5 py-1 font-mono text-lg font-bold tracking-[0.15em] text-white">{created.invite_code}</code>
            <CopyButton text={created.invite_code} />
          </span>
        </SuccessBox>
      )}
    </Panel>
  );
}

/** requirements §2: my invite codes, newest first, with status, uses, expiry, Copy and Deactivate. */
export function InviteList() {
  const q = useQuery({
    queryKey: referralKeys.invites,
    queryFn: () => call(client.GET('/api/invites')),
    refetchInterval: 30_000,
    refetchOnWindowFocus: true,
  });
  const items = q.data?.items ?? [];
  const active = items.filter((i) => inviteStatus(i) === 'Active').length;

  return (
    <Panel
      id="invite-list-title"
      title="Your invite codes"
      description={q.data ? `${items.length} code${items.length === 1 ? '' : 's'} · ${active} active` : 'Codes you have created'}
      icon={Ticket}
      actions={<RefreshButton onRefresh={q.refetch} busy={q.isRefetching} label="Refresh invite codes" />}
    >
      <QueryStates
        pending={q.isPending}
        error={q.error}
        onRetry={() => void q.refetch()}
        failed="Could not load your invite codes"
        count={items.length}
        bar="h-24"
        bars={2}
        empty={
          <div className="rounded-xl border border-dashed border-zinc-800 px-4 py-10 text-center">
            <Ticket className="mx-auto size-9 text-zinc-700" aria-hidden="true" />
            <p className="mt-2 text-sm font-medium text-zinc-300">No invite codes yet</p>
            <p className="mt-1 text-xs text-zinc-400">Generate one to invite someone.</p>
          </div>
        }
      >
        <ul className="space-y-2.5" aria-label="Invite codes">
          {items.map((invite) => (
            <InviteItem key={invite.id} invite={invite} />
          ))}
        </ul>
      </QueryStates>
    </Panel>
  );
}

function UsesBar({ current, max }: { current: number; max: number }) {
  const pct = max > 0 ? Math.min(100, (current / max) * 100) : 0;
  return (
    <span className="flex items-center gap-2">
      <span className="h-1.5 w-16 overflow-hidden rounded-full bg-zinc-800" aria-hidden="true">
        <span className={clsx('block h-full rounded-full', pct >= 100 ? 'bg-amber-400' : 'bg-emerald-400')} style={{ width: `${pct}%` }} />
      </span>
      <span className="tabular-nums" data-testid="invite-uses">
        {current}/{max}
      </span>
      <span className="text-zinc-400">uses</span>
    </span>
  );
}

/** One invite code; `inviter` (the admin list) names who made it. */
export function InviteItem({ invite, inviter, readOnly }: { invite: Invite; inviter?: { name: string; email: string }; readOnly?: boolean }) {
  const status = inviteStatus(invite);
  const expired = status === 'Expired';
  return (
    <li
      className={clsx(
        'grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-2.5 rounded-xl border bg-zinc-950/50 p-3.5 sm:p-4',
        status === 'Active' ? 'border-zinc-800' : 'border-zinc-800/60',
      )}
      data-testid="invite-item"
      data-code={invite.invite_code}
    >
      <div className="col-span-2 flex min-w-0 flex-wrap items-center gap-2.5 sm:col-span-1">
        <code
          className={clsx(
            'font-mono text-xl font-bold tracking-[0.15em] break-all sm:text-2xl',
            status === 'Active' ? 'text-white' : 'text-zinc-400',
          )}
        >
          {invite.invite_code}
        </code>
        <StatusPill tone={STATUS_TONE[status]}>
          <span data-testid="invite-status">{status}</span>
        </StatusPill>
      </div>
      {/* Phone: actions under the details; wider: top right. */}
      <div className="col-span-2 row-start-3 flex items-center gap-2 sm:col-span-1 sm:col-start-2 sm:row-start-1 sm:justify-end">
        <CopyButton text={invite.invite_code} />
        {!readOnly && status === 'Active' && <DeactivateButton invite={invite} />}
      </div>
      <div className="col-span-2 row-start-2 flex flex-wrap items-center gap-x-4 gap-y-1.5 text-xs text-zinc-400">
        <UsesBar current={invite.current_uses} max={invite.max_uses} />
        <span className={clsx('inline-flex items-center gap-1', expired && 'text-red-300')}>
          <CalendarClock className="size-3.5" aria-hidden="true" />
          {expired ? 'Expired' : 'Expires'} <time dateTime={invite.expires_at}>{formatDate(invite.expires_at)}</time>
        </span>
        <span className="text-zinc-400">
          Created <time dateTime={invite.created_at}>{formatDate(invite.created_at)}</time>
        </span>
        {inviter && (
          <span className="inline-flex min-w-0 items-center gap-1 text-zinc-400">
            <Users className="size-3.5 shrink-0" aria-hidden="true" />{' '}
            <span className="truncate">
              {inviter.name || inviter.email} <span className="text-zinc-400">({inviter.email})</span>
            </span>
          </span>
        )}
      </div>
    </li>
  );
}

function DeactivateButton({ invite }: { invite: Invite }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const deactivate = useMutation({
    mutationFn: () => call(client.POST('/api/invites/{id}/deactivate', { params: { path: { id: invite.id } } })),
    onSuccess: (res) => {
      toast.success(inviteMessages.deactivated);
      qc.setQueryData<{ items: Invite[] }>(referralKeys.invites, (old) =>
        old ? { items: old.items.map((i) => (i.id === res.invite.id ? res.invite : i)) } : old,
      );
      void qc.invalidateQueries({ queryKey: referralKeys.all });
      setOpen(false);
    },
    onError: (err) => {
      toast.error(errorMessage(err, inviteMessages.deactivateFailed));
      setOpen(false);
      void qc.invalidateQueries({ queryKey: referralKeys.invites });
    },
  });

  return (
    <AlertDialog.Root open={open} onOpenChange={(v) => !deactivate.isPending && setOpen(v)}>
      <AlertDialog.Trigger asChild>
        <Button variant="ghost" size="sm" className="text-red-300 hover:bg-red-500/10 hover:text-red-200" aria-label={`Deactivate ${invite.invite_code}`}>
          <Ban className="size-3.5" aria-hidden="true" /> Deactivate
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-zinc-800 bg-zinc-900 p-6 shadow-2xl shadow-black/60">
          <AlertDialog.Title className="text-lg font-bold text-white">Deactivate invite code?</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-zinc-400">
            <code className="font-mono font-bold tracking-widest text-zinc-200">{invite.invite_code}</code> will stop working
            immediately. Accounts already created with it are not affected. This cannot be undone.
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={deactivate.isPending}>
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <Button
              onClick={() => deactivate.mutate()}
              loading={deactivate.isPending}
              className="bg-none bg-red-600 text-white shadow-red-950/40 hover:bg-red-500"
            >
              Deactivate
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
