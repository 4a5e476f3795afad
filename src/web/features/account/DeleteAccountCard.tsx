import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { DELETE_CONFIRMATION_WORD } from '../../../shared/constants.js';
import { accountMessages, messages } from '../../../shared/messages.js';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { accountApi } from './accountApi';
import { FormError } from '../../components/FormError';
import { Card } from './Card';

export function DeleteAccountCard() {
  const id = useId();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onOpenChange = (next: boolean) => {
    if (busy) return;
    setOpen(next);
    if (!next) {
      setPassword('');
      setConfirm('');
      setError(null);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!password) return setError(messages.passwordRequired);
    if (confirm.trim() !== DELETE_CONFIRMATION_WORD) return setError(accountMessages.typeDelete);
    setBusy(true);
    try {
      const res = await accountApi.deleteAccount({ password, confirm });
      // Signed out, like Sign Out: forget the account's data, keep the (now empty) profile query.
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.me[0] });
      qc.setQueryData(queryKeys.me, null);
      navigate('/', { replace: true });
      toast.success(res.message);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
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
        <form noValidate onSubmit={submit} className="space-y-4" aria-label="Delete account">
          <FormError message={error} />
          <div>
            <label htmlFor={`${id}-password`} className="field-label">
              Password
            </label>
            <input id={`${id}-password`} className="input" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </div>
          <div>
            <label htmlFor={`${id}-confirm`} className="field-label">
              Type {DELETE_CONFIRMATION_WORD} to confirm
            </label>
            <input
              id={`${id}-confirm`}
              className="input font-mono tracking-wider"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
            />
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} className="bg-none bg-red-600 hover:bg-red-500">
              Delete my account
            </Button>
          </div>
        </form>
      </Modal>
    </Card>
  );
}
