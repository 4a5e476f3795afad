import { useId, useState, type FormEvent } from 'react';
import { ArrowLeft, MailCheck } from 'lucide-react';
import { messages } from '../../../shared/messages.js';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { errorMessage } from '../../lib/api';
import { accountApi } from '../account/accountApi';
import { EmailField } from './EmailField';

/** 'Forgot password?': asks for the address and always answers the same way. */
export function ForgotPasswordForm({ initialEmail, onBack }: { initialEmail: string; onBack: () => void }) {
  const id = useId();
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!email.trim()) return setError(messages.emailRequired);
    setBusy(true);
    try {
      setSent((await accountApi.forgotPassword(email.trim())).message);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="panel w-full p-6 shadow-2xl shadow-black/40 sm:p-8">
      <div className="mb-6">
        <h2 className="text-2xl font-bold tracking-tight text-white">Reset your password</h2>
        <p className="mt-1 text-sm text-zinc-400">Enter the email you signed up with and we'll send you a link.</p>
      </div>
      {sent ? (
        <div role="status" className="flex items-start gap-2.5 rounded-xl border border-emerald-500/40 bg-emerald-500/10 px-3.5 py-3 text-sm text-emerald-200">
          <MailCheck className="mt-0.5 size-4 shrink-0 text-emerald-300" aria-hidden="true" />
          <span>{sent}</span>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="space-y-4" aria-label="Reset password">
          <FormError message={error} />
          <EmailField id={`${id}-email`} value={email} onChange={setEmail} />
          <Button type="submit" loading={busy} className="w-full py-3">
            Send reset link
          </Button>
        </form>
      )}
      <p className="mt-6 text-center text-sm">
        <button type="button" onClick={onBack} className="inline-flex items-center gap-1.5 rounded font-semibold text-fuchsia-400 underline-offset-4 hover:text-fuchsia-300 hover:underline">
          <ArrowLeft className="size-4" aria-hidden="true" /> Back to sign in
        </button>
      </p>
    </div>
  );
}
