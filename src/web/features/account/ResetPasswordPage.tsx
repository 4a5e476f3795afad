import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Lock, MailCheck, XCircle } from 'lucide-react';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { newPasswordError } from '../../../shared/account.schema.js';
import { accountMessages } from '../../../shared/account.messages.js';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { Logo } from '../../components/Logo';
import { Notice } from '../../components/Notice';
import { SuccessBox } from '../../components/SuccessBox';
import { errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { useFormSubmit } from '../../lib/useFormSubmit';
import { accountApi } from './accountApi';
import { NewPasswordFields } from './NewPasswordFields';

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <div className="app-bg flex min-h-dvh flex-col items-center justify-center px-4 py-10">
      <Logo />
      <div className="panel mt-8 w-full max-w-md p-6 shadow-2xl shadow-black/40 sm:p-8">{children}</div>
    </div>
  );
}

/** The page a reset link opens: choose a new password, then sign in with it. */
export function ResetPasswordPage() {
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    document.title = `Reset password - ${PRODUCT_NAME}`;
  }, []);

  const form = useFormSubmit(
    () => newPasswordError(password, confirm),
    async () => {
      setDone((await accountApi.resetPassword({ token, password, confirmPassword: confirm })).message);
      // Every session ended, this browser's too.
      qc.setQueryData(queryKeys.me, null);
    },
  );

  return (
    <Shell>
      <h1 className="text-2xl font-bold tracking-tight text-white">Choose a new password</h1>
      {done ? (
        <>
          <SuccessBox className="mt-4">{done}</SuccessBox>
          <Link to="/" className="btn btn-primary mt-6 w-full py-3">
            Sign in
          </Link>
        </>
      ) : (
        <form noValidate onSubmit={form.submit} className="mt-5 space-y-4" aria-label="Choose a new password">
          <FormError message={form.error} />
          <NewPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} icon={<Lock />} />
          <p className="text-xs text-zinc-400">Setting it signs you out everywhere and revokes your API keys.</p>
          <Button type="submit" loading={form.busy} className="w-full py-3">
            Set new password
          </Button>
          <p className="text-center text-sm">
            <Link to="/" className="font-semibold text-fuchsia-400 underline-offset-4 hover:text-fuchsia-300 hover:underline">
              Back to sign in
            </Link>
          </p>
        </form>
      )}
    </Shell>
  );
}

/** The page a confirmation link opens: confirms once, then back to the dashboard. */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const qc = useQueryClient();
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const started = useRef(false);

  useEffect(() => {
    document.title = `Confirm email - ${PRODUCT_NAME}`;
    if (started.current) return;
    started.current = true;
    // A link without its token cannot confirm anything: say so without asking the server.
    if (!token) return setResult({ ok: false, message: accountMessages.verifyLinkInvalid });
    accountApi
      .verifyEmail(token)
      .then((r) => {
        setResult({ ok: true, message: r.message });
        void qc.invalidateQueries({ queryKey: ['account'] });
      })
      .catch((err: unknown) => setResult({ ok: false, message: errorMessage(err) }));
  }, [token, qc]);

  return (
    <Shell>
      <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight text-white">
        <MailCheck className="size-6 text-fuchsia-300" aria-hidden="true" /> Confirm your email
      </h1>
      {result ? (
        <Notice tone={result.ok ? 'success' : 'error'} icon={result.ok ? CheckCircle2 : XCircle} className="mt-4">
          {result.message}
        </Notice>
      ) : (
        <p className="mt-4 text-sm text-zinc-400">Checking your link...</p>
      )}
      <Link to="/dashboard" className="btn btn-primary mt-6 w-full py-3">
        Go to the dashboard
      </Link>
    </Shell>
  );
}
