import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { toast } from 'sonner';
import { newPasswordError } from '../../../shared/account.schema.js';
import { messages } from '../../../shared/messages.js';
import { Button } from '../../components/Button';
import { LabeledField } from '../../components/LabeledField';
import { errorMessage } from '../../lib/api';
import { accountApi, accountKeys } from './accountApi';
import { FormError } from '../../components/FormError';
import { Card } from './Card';

export function ChangePasswordCard() {
  const id = useId();
  const qc = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!current) return setError(messages.passwordRequired);
    const invalid = newPasswordError(next, confirm);
    if (invalid) return setError(invalid);
    setBusy(true);
    try {
      const res = await accountApi.changePassword({ currentPassword: current, newPassword: next, confirmPassword: confirm });
      toast.success(res.message);
      setCurrent('');
      setNext('');
      setConfirm('');
      void qc.invalidateQueries({ queryKey: accountKeys.sessions });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card labelId={`${id}-title`} title="Change password" description="Other devices are signed out and your API keys are revoked when it changes." icon={<KeyRound />}>
      <form noValidate onSubmit={submit} className="space-y-3.5" aria-label="Change password">
        <FormError message={error} />
        <LabeledField id={`${id}-current`} label="Current password">
          <input id={`${id}-current`} className="input" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        </LabeledField>
        <div className="grid gap-3.5 sm:grid-cols-2">
          <LabeledField id={`${id}-new`} label="New password">
            <input
              id={`${id}-new`}
              className="input"
              type="password"
              autoComplete="new-password"
              placeholder="At least 6 characters"
              value={next}
              onChange={(e) => setNext(e.target.value)}
            />
          </LabeledField>
          <LabeledField id={`${id}-confirm`} label="Confirm new password">
            <input id={`${id}-confirm`} className="input" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
          </LabeledField>
        </div>
        <Button type="submit" loading={busy} className="w-full sm:w-auto">
          Change password
        </Button>
      </form>
    </Card>
  );
}
