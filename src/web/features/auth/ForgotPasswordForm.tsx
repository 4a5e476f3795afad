import { useState } from 'react';
import { ArrowLeft, MailCheck } from 'lucide-react';
import { authMessages } from '../../../shared/auth.messages.js';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { Notice } from '../../components/Notice';
import { useFormSubmit } from '../../lib/useFormSubmit';
import { accountApi } from '../account/accountApi';
import { EmailField } from './EmailField';

/** 'Forgot password?': asks for the address and always answers the same way. */
export function ForgotPasswordForm({ initialEmail, onBack }: { initialEmail: string; onBack: () => void }) {
  const [email, setEmail] = useState(initialEmail);
  const [sent, setSent] = useState<string | null>(null);
  const form = useFormSubmit(
    () => (email.trim() ? null : authMessages.emailRequired),
    async () => setSent((await accountApi.forgotPassword(email.trim())).message),
  );

  return (
    <div className="panel w-full p-6 shadow-2xl shadow-black/40 sm:p-8">
      <div className="mb-6">
        <h2 className="text-2xl font-bold tracking-tight text-white">Reset your password</h2>
        <p className="mt-1 text-sm text-zinc-400">Enter the email you signed up with and we'll send you a link.</p>
      </div>
      {sent ? (
        <Notice tone="success" icon={MailCheck}>
          {sent}
        </Notice>
      ) : (
        <form noValidate onSubmit={form.submit} className="space-y-4" aria-label="Reset password">
          <FormError message={form.error} />
          <EmailField value={email} onChange={setEmail} />
          <Button type="submit" loading={form.busy} className="w-full py-3">
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
