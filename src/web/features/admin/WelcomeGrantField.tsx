import { useEffect, useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Gift } from 'lucide-react';
import { toast } from '../../lib/toast';
import { MAX_WELCOME_ENERGY, welcomeGrantMessages } from '../../../shared/settings.schema.js';
import { Button } from '../../components/Button';
import { call, client, describeError, errorMessage } from '../../lib/api';
import { adminKeys, numberFormat } from './adminApi';
import { ErrorBox } from '../../components/ErrorBox';
import { Skeleton } from '../../components/Skeleton';

/** The welcome grant every new account gets once (decision 028); 0 turns it off. */
export function WelcomeGrantField() {
  const qc = useQueryClient();
  const inputId = useId();
  const helpId = useId();
  const errorId = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  const setting = useQuery({
    queryKey: adminKeys.welcomeGrant,
    queryFn: async () => (await call(client.GET('/api/admin/welcome-grant'))).welcome_energy,
  });
  useEffect(() => {
    if (setting.data !== undefined) setText(String(setting.data));
  }, [setting.data]);

  const save = useMutation({
    mutationFn: (value: number) => call(client.PUT('/api/admin/welcome-grant', { body: { welcome_energy: value } })),
    onSuccess: (res) => {
      setError(null);
      qc.setQueryData(adminKeys.welcomeGrant, res.welcome_energy);
      void qc.invalidateQueries({ queryKey: adminKeys.audit });
      toast.success(res.welcome_energy > 0 ? `New accounts get ${numberFormat.format(res.welcome_energy)} ENERGY once` : 'New accounts get no welcome grant');
    },
    onError: (err) => setError(errorMessage(err, `Could not save the welcome grant: ${describeError(err)}`)),
  });

  if (setting.isPending) return <Skeleton className="h-12" />;
  if (setting.isError) return <ErrorBox onRetry={() => void setting.refetch()}>Could not load the welcome grant: {describeError(setting.error)}</ErrorBox>;

  const trimmed = text.trim();
  const value = /^\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  const valid = Number.isInteger(value) && value >= 0 && value <= MAX_WELCOME_ENERGY;
  return (
    <form
      noValidate
      className="rounded-xl border border-zinc-800 bg-zinc-950/50 px-3.5 py-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (!valid) {
          setError(welcomeGrantMessages.range);
          return;
        }
        save.mutate(value);
      }}
    >
      <label htmlFor={inputId} className="block text-xs font-medium text-zinc-400">
        Welcome grant (ENERGY)
      </label>
      <div className="mt-1 flex items-center gap-2">
        <input
          id={inputId}
          type="number"
          min={0}
          max={MAX_WELCOME_ENERGY}
          step={1}
          inputMode="numeric"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
          aria-describedby={error ? `${helpId} ${errorId}` : helpId}
          aria-invalid={error ? true : undefined}
          className="input min-w-0 flex-1 py-2 tabular-nums"
        />
        <Button type="submit" variant="secondary" size="sm" loading={save.isPending} disabled={String(setting.data) === trimmed} className="py-2">
          {!save.isPending && <Gift className="size-4" aria-hidden="true" />} Save
        </Button>
      </div>
      <p id={helpId} className="mt-1.5 text-xs text-zinc-400">
        Given once to each new account (after it confirms its e-mail when confirmation is on), never twice to one address. 0: none.
      </p>
      {error && (
        <p id={errorId} role="alert" className="mt-1.5 text-xs text-rose-300">
          {error}
        </p>
      )}
    </form>
  );
}
