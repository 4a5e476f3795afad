import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { toast } from '../../lib/toast';
import { newPasswordError } from '../../../shared/account.schema.js';
import { authMessages } from '../../../shared/auth.messages.js';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { LabeledInput } from '../../components/LabeledField';
import { useFormSubmit } from '../../lib/useFormSubmit';
import { accountApi, accountKeys } from './accountApi';
import { Card } from './Card';
import { NewPasswordFields } from './NewPasswordFields';

export function ChangePasswordCard() {
  const id = useId();
  const qc = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');

  const form = useFormSubmit(
    () => (current ? newPasswordError(next, confirm) : authMessages.passwordRequired),
    async () => {
      const res = await accountApi.changePassword({ currentPassword: current, newPassword: next, confirmPassword: confirm });
      toast.success(res.message);
      setCurrent('');
      setNext('');
      setConfirm('');
      void qc.invalidateQueries({ queryKey: accountKeys.sessions });
    },
  );

  return (
    <Card labelId={`${id}-title`} title="Change password" description="Other devices are signed out and your API keys are revoked when it changes." icon={<KeyRound />}>
      <form noValidate onSubmit={form.submit} className="space-y-3.5" aria-label="Change password">
        <FormError message={form.error} />
        <LabeledInput label="Current password" type="password" autoComplete="current-password" value={current} onChange={setCurrent} />
        <div className="grid gap-3.5 sm:grid-cols-2">
          <NewPasswordFields password={next} confirm={confirm} onPassword={setNext} onConfirm={setConfirm} />
        </div>
        <Button type="submit" loading={form.busy} className="w-full sm:w-auto">
          Change password
        </Button>
      </form>
    </Card>
  );
}
