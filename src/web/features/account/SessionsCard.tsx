import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Laptop, LogOut, MonitorSmartphone, Smartphone } from 'lucide-react';
import { toast } from '../../lib/toast';
import type { AccountSession } from '../../../shared/account.schema.js';
import { Button } from '../../components/Button';
import { describeError, errorMessage } from '../../lib/api';
import { accountApi, accountKeys } from './accountApi';
import { Card } from './Card';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function lastSeen(s: AccountSession): string {
  if (s.current) return 'Active now';
  const minutes = Math.round((Date.now() - Date.parse(s.last_seen_at)) / 60_000);
  if (minutes < 10) return 'Active recently';
  return `Last seen ${when.format(new Date(s.last_seen_at))}`;
}

const isPhone = (s: AccountSession) => /iPhone|Android|iPad|Mobile/i.test(s.user_agent ?? '');

export function SessionsCard() {
  const id = useId();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: accountKeys.sessions, queryFn: accountApi.sessions });
  const [busy, setBusy] = useState<string | null>(null);
  const others = (q.data ?? []).filter((s) => !s.current);

  const end = async (sessionId: string | 'others') => {
    setBusy(sessionId);
    try {
      if (sessionId === 'others') toast.success((await accountApi.endOthers()).message);
      else {
        await accountApi.endSession(sessionId);
        toast.success('Session ended');
      }
      await qc.invalidateQueries({ queryKey: accountKeys.sessions });
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card
      labelId={`${id}-title`}
      title="Where you're signed in"
      description="Sessions stay signed in for 30 days of inactivity. End any you don't recognise."
      icon={<MonitorSmartphone />}
      action={
        others.length > 0 && (
          <Button variant="secondary" size="sm" loading={busy === 'others'} onClick={() => end('others')} className="px-3 py-2 text-sm">
            <LogOut className="size-4" aria-hidden="true" /> Sign out everywhere else
          </Button>
        )
      }
    >
      {q.isPending ? (
        <p className="text-sm text-zinc-400">Loading sessions...</p>
      ) : q.isError ? (
        <p role="alert" className="text-sm text-red-300">
          {describeError(q.error)}
        </p>
      ) : (
        <ul className="divide-y divide-zinc-800 overflow-hidden rounded-xl border border-zinc-800" aria-label="Sessions">
          {q.data.map((s) => {
            const Icon = isPhone(s) ? Smartphone : Laptop;
            return (
              <li key={s.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 bg-zinc-950/40 px-4 py-3" data-testid="session-row">
                <Icon className="size-5 shrink-0 text-zinc-400" aria-hidden="true" />
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-zinc-100">
                    <span className="truncate">{s.device}</span>
                    {s.current && (
                      <span className="rounded-full bg-emerald-500/15 px-2 py-0.5 text-xs font-semibold text-emerald-300">This device</span>
                    )}
                  </p>
                  <p className="truncate text-xs text-zinc-400">
                    {s.ip ?? 'Unknown IP'} · {lastSeen(s)}
                  </p>
                </div>
                {!s.current && (
                  <Button
                    variant="ghost"
                    size="sm"
                    loading={busy === s.id}
                    onClick={() => end(s.id)}
                    className="ml-auto px-3 py-1.5 text-sm"
                    aria-label={`End session: ${s.device}, ${s.ip ?? 'unknown IP'}`}
                  >
                    End
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
