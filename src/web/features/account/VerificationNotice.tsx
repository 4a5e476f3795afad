import { useState } from 'react';
import { MailCheck } from 'lucide-react';
import { toast } from '../../lib/toast';
import { accountMessages } from '../../../shared/account.messages.js';
import { Button } from '../../components/Button';
import { errorMessage } from '../../lib/api';
import { accountApi } from './accountApi';

/** Shown while EMAIL_VERIFICATION is on and the address is not confirmed yet. */
export function VerificationNotice() {
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setBusy(true);
    try {
      toast.success((await accountApi.resendVerification()).message);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div role="status" className="flex flex-wrap items-center gap-3 rounded-2xl border border-amber-500/40 bg-amber-500/10 px-4 py-3 text-sm text-amber-100">
      <MailCheck className="size-5 shrink-0 text-amber-300" aria-hidden="true" />
      <p className="min-w-0 flex-1">{accountMessages.verifyFirst}</p>
      <Button variant="secondary" size="sm" onClick={resend} loading={busy} className="px-3 py-2 text-sm">
        Send the link again
      </Button>
    </div>
  );
}
