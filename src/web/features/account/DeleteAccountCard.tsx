import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Trash2 } from 'lucide-react';
import { toast } from '../../lib/toast';
import { DELETE_CONFIRMATION_WORD } from '../../../shared/constants.js';
import { accountMessages } from '../../../shared/account.messages.js';
import { authMessages } from '../../../shared/auth.messages.js';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { LabeledInput } from '../../components/LabeledField';
import { Modal } from '../../components/Modal';
import { queryKeys } from '../../lib/queryKeys';
import { useFormSubmit } from '../../lib/useFormSubmit';
import { accountApi } from './accountApi';
import { Card } from './Card';

export function DeleteAccountCard() {
  const id = useId();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');

  const form = useFormSubmit(
    () => (!password ? authMessages.passwordRequired : confirm.trim() !== DELETE_CONFIRMATION_WORD ? accountMessages.typeDelete : null),
    async () => {
      const res = await accountApi.deleteAccount({ password, confirm });
      // Signed out, like Sign Out: forget the account's data, keep the (now empty) profile query.
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.me[0] });
      qc.setQueryData(queryKeys.me, null);
      navigate('/', { replace: true });
      toast.success(res.message);
    },
  );

  const onOpenChange = (next: boolean) => {
    if (form.busy) return;
    setOpen(next);
    if (!next) {
      setPassword('');
      setConfirm('');
      form.setError(null);
    }
  };

  return (
    <Card
      danger
      labelId={`${id}-title`}
      title="Delete account"
      description="Removes your sign-in, sessions, library files and personal details. Unused ENERGY is not refunded."
      icon={<Trash2 />}
    >
      <Button variant="secondary" onClick={() => setOpen(true)} className="w-full border-red-900/70 text-red-200 hover:border-red-700 hover:bg-red-950/60 sm:w-auto">
        <Trash2 className="size-4" aria-hidden="true" /> Delete account
      </Button>
      <Modal
        open={open}
        onOpenChange={onOpenChange}
        title="Delete your account?"
        description="This cannot be undone. Download your data first if you want to keep it."
      >
        <form noValidate onSubmit={form.submit} className="space-y-4" aria-label="Delete account">
          <FormError message={form.error} />
          <LabeledInput label="Password" type="password" autoComplete="current-password" value={password} onChange={setPassword} />
          <LabeledInput
            label={`Type ${DELETE_CONFIRMATION_WORD} to confirm`}
            inputClassName="font-mono tracking-wider"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={confirm}
            onChange={setConfirm}
          />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => onOpenChange(false)} disabled={form.busy}>
              Cancel
            </Button>
            <Button type="submit" loading={form.busy} className="bg-none bg-red-600 hover:bg-red-500">
              Delete my account
            </Button>
          </div>
        </form>
      </Modal>
    </Card>
  );
}
