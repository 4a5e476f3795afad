import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Switch } from 'radix-ui';
import { DoorOpen, KeyRound, Loader2 } from 'lucide-react';
import { toast } from '../../lib/toast';
import clsx from 'clsx';
import { adminUiMessages } from '../../../shared/admin.messages.js';
import { call, client, describeError, errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { adminKeys } from './adminApi';
import { ErrorBox } from '../../components/ErrorBox';
import { Skeleton } from '../../components/Skeleton';
import { WelcomeGrantField } from './WelcomeGrantField';

/** requirements §2: the referral-only registration switch, applied immediately (PUT /api/settings/referral). */
export function ReferralModeCard({ className }: { className?: string }) {
  const qc = useQueryClient();
  const labelId = useId();
  const [error, setError] = useState<string | null>(null);

  const setting = useQuery({
    queryKey: adminKeys.referralSetting,
    queryFn: async () => (await call(client.GET('/api/settings/referral'))).is_referral_only,
  });

  const save = useMutation({
    mutationFn: (value: boolean) => call(client.PUT('/api/settings/referral', { body: { is_referral_only: value } })),
    onMutate: async (value) => {
      setError(null);
      await qc.cancelQueries({ queryKey: adminKeys.referralSetting });
      const previous = qc.getQueryData<boolean>(adminKeys.referralSetting);
      qc.setQueryData(adminKeys.referralSetting, value);
      return { previous };
    },
    onError: (err, _value, context) => {
      qc.setQueryData(adminKeys.referralSetting, context?.previous);
      const msg = errorMessage(err, `Could not change the registration mode: ${describeError(err)}`);
      setError(msg);
      toast.error(msg);
    },
    onSuccess: (res) => {
      const on = res.is_referral_only === true;
      qc.setQueryData(adminKeys.referralSetting, on);
      // The sign-up form reads this too.
      qc.setQueryData(queryKeys.referralSettings, on);
      void qc.invalidateQueries({ queryKey: adminKeys.audit });
      toast.success(on ? 'Referral-only mode is on: new accounts need an invite code' : 'Registration is open to everyone');
    },
  });

  const on = setting.data === true;

  return (
    <section
      aria-labelledby={labelId}
      className={clsx(
        'panel flex flex-col gap-4 p-4 transition-colors sm:p-5',
        on ? 'border-amber-400/40 bg-gradient-to-br from-amber-400/10 to-zinc-900/60' : 'border-emerald-500/30 bg-gradient-to-br from-emerald-500/10 to-zinc-900/60',
        className,
      )}
    >
      <div className="flex items-start gap-3">
        <span
          className={clsx(
            'flex size-10 shrink-0 items-center justify-center rounded-xl ring-1',
            on ? 'bg-amber-400/15 text-amber-300 ring-amber-400/30' : 'bg-emerald-500/15 text-emerald-300 ring-emerald-500/30',
          )}
        >
          {on ? <KeyRound className="size-5" aria-hidden="true" /> : <DoorOpen className="size-5" aria-hidden="true" />}
        </span>
        <div className="min-w-0">
          <h3 id={labelId} className="text-base font-semibold text-white">
            Registration
          </h3>
          <p className="mt-0.5 text-sm text-zinc-400">Require an invite code to create an account.</p>
        </div>
      </div>

      {setting.isPending ? (
        <Skeleton className="h-12" />
      ) : setting.isError ? (
        <ErrorBox onRetry={() => void setting.refetch()}>Could not load the registration mode: {describeError(setting.error)}</ErrorBox>
      ) : (
        <div className="flex items-center justify-between gap-3 rounded-xl border border-zinc-800 bg-zinc-950/50 px-3.5 py-3">
          <label htmlFor={`${labelId}-switch`} className="min-w-0 cursor-pointer">
            <span className="block text-xs font-medium text-zinc-400">Referral-only mode</span>
            <span
              data-testid="referral-mode"
              className={clsx('mt-0.5 block text-sm font-bold tracking-wide', on ? 'text-amber-300' : 'text-emerald-300')}
            >
              {on ? adminUiMessages.referralOnlyOn : adminUiMessages.referralOnlyOff}
            </span>
          </label>
          <span className="flex items-center gap-2">
            {save.isPending && <Loader2 className="size-4 animate-spin text-zinc-400" aria-label="Saving" />}
            <Switch.Root
              id={`${labelId}-switch`}
              checked={on}
              disabled={save.isPending}
              onCheckedChange={(v) => save.mutate(v)}
              aria-label="Referral-only mode"
              className={clsx(
                'relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border border-transparent transition-colors outline-none',
                'focus-visible:ring-2 focus-visible:ring-fuchsia-400 focus-visible:ring-offset-2 focus-visible:ring-offset-zinc-900 disabled:opacity-60',
                on ? 'bg-amber-400' : 'bg-zinc-700',
              )}
            >
              <Switch.Thumb className="block size-5 translate-x-1 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-6" />
            </Switch.Root>
          </span>
        </div>
      )}
      <p className="text-xs text-zinc-400">
        {on
          ? 'Visitors need a valid invite code to sign up. Existing accounts are not affected.'
          : 'Anyone can create an account. Invite codes are optional.'}
      </p>
      {error && <ErrorBox>{error}</ErrorBox>}
      <WelcomeGrantField />
    </section>
  );
}
