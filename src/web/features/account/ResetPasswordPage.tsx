import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Lock, MailCheck, XCircle } from 'lucide-react';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { newPasswordError } from '../../../shared/account.schema.js';
import { accountMessages } from '../../../shared/messages.js';
import { Button } from '../../components/Button';
import { LabeledField } from '../../components/LabeledField';
import { Logo } from '../../components/Logo';
import { errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { accountApi } from './accountApi';
import { FormError } from '../../components/FormError';

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
  const id = useId();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = `Reset password - ${PRODUCT_NAME}`;
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const invalid = newPasswordError(password, confirm);
    if (invalid) return setError(invalid);
    setBusy(true);
    try {
      setDone((await accountApi.resetPassword({ token, password, confirmPassword: confirm })).message);
      // Every session ended, this browser's too.
      qc.setQueryData(queryKeys.me, null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Shell>
      <h1 className="text-2xl font-bold tracking-tight text-white">Choose a new password</h1>
      {done ? (
        <>
          <p role="status" className="mt-4 flex items-start gap-2.5 rounded-xl border border-emerald-500/40 bg-emerald-500/10 px-3.5 py-3 text-sm text-emerald-200">
            <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>{done}</span>
          </p>
          <Link to="/" className="btn btn-primary mt-6 w-full py-3">
            Sign in
          </Link>
        </>
      ) : (
        <form noValidate onSubmit={submit} className="mt-5 space-y-4" aria-label="Choose a new password">
          <FormError message={error} />
          <LabeledField id={`${id}-password`} label="New password" icon={<Lock />}>
            <input
              id={`${id}-password`}
              className="input pl-10"
              type="password"
              autoComplete="new-password"
              placeholder="At least 6 characters"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </LabeledField>
          <LabeledField id={`${id}-confirm`} label="Confirm new password" icon={<Lock />}>
            <input id={`${id}-confirm`} className="input pl-10" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
          </LabeledField>
          <p className="text-xs text-zinc-400">Setting it signs you out everywhere and revokes your API keys.</p>
          <Button type="submit" loading={busy} className="w-full py-3">
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
        <p
          role={result.ok ? 'status' : 'alert'}
          className={
            result.ok
              ? 'mt-4 flex items-start gap-2.5 rounded-xl border border-emerald-500/40 bg-emerald-500/10 px-3.5 py-3 text-sm text-emerald-200'
              : 'mt-4 flex items-start gap-2.5 rounded-xl border border-red-500/40 bg-red-500/10 px-3.5 py-3 text-sm text-red-300'
          }
        >
          {result.ok ? <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" /> : <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />}
          <span>{result.message}</span>
        </p>
      ) : (
        <p className="mt-4 text-sm text-zinc-400">Checking your link...</p>
      )}
      <Link to="/dashboard" className="btn btn-primary mt-6 w-full py-3">
        Go to the dashboard
      </Link>
    </Shell>
  );
}
