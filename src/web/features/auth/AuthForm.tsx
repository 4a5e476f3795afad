import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Eye, EyeOff, Lock } from 'lucide-react';
import { appMessages } from '../../../shared/app.messages.js';
import { authMessages } from '../../../shared/auth.messages.js';
import { useAuth } from '../../app/auth';
import { errorMessage } from '../../lib/api';
import { lazyModule } from '../../lib/lazyModule';
import { clearSignOutNotice, signOutNotice } from '../../lib/signOutNotice';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { LabeledInput } from '../../components/LabeledField';
import type { RegisterValues } from './RegisterFields';
import { useReferralOnly } from './useReferralSetting';
import { EmailField } from './EmailField';

// Loaded when asked for, not with the landing page (decision 032).
const ForgotPasswordForm = lazy(() => import('./ForgotPasswordForm').then((m) => ({ default: m.ForgotPasswordForm })));
/** The register form's own fields, the Terms and the rules: loaded as a visitor heads for 'Sign up'. */
const registerPart = lazyModule(() => import('./RegisterFields'));
const loadRegisterPart = () => void registerPart.load().catch(() => undefined);

const NO_REGISTER_VALUES: RegisterValues = { name: '', confirmPassword: '', inviteCode: '', confirmAge: false, acceptTerms: false };

type Mode = 'login' | 'register' | 'forgot';

/** requirements §2: one form, login and register switched by a toggle; starts on login. */
export function AuthForm() {
  const { signIn, signUp } = useAuth();
  const navigate = useNavigate();
  const referralOnly = useReferralOnly();

  const [mode, setMode] = useState<Mode>('login');
  // Set once the register part has arrived; register mode waits for it, so nothing shows half drawn.
  const [register, setRegister] = useState(registerPart.current);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [values, setValues] = useState(NO_REGISTER_VALUES);
  const { name, confirmPassword, inviteCode, confirmAge, acceptTerms } = values;
  const change = <K extends keyof RegisterValues>(key: K, value: RegisterValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const [showPassword, setShowPassword] = useState(false);
  // The reason the app signed out by itself (a suspended account), if it did.
  const [error, setError] = useState<string | null>(signOutNotice);
  useEffect(clearSignOutNotice, []);
  const [submitting, setSubmitting] = useState(false);

  const isRegister = mode === 'register' && register !== null;

  const switchMode = () => {
    if (isRegister) {
      setMode('login');
      setError(null);
      return;
    }
    registerPart.load().then(
      (part) => {
        setRegister(part);
        setMode('register');
        setError(null);
      },
      () => setError(appMessages.unexpected),
    );
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    setError(null);
    if (isRegister) {
      const invalid = register.registrationError({
        name,
        email,
        password,
        confirmPassword,
        acceptTerms,
        confirmAge,
        inviteCode,
        referralOnly,
      });
      if (invalid) {
        setError(invalid);
        return;
      }
    } else if (!email.trim() || !password) {
      setError(!email.trim() ? authMessages.emailRequired : authMessages.passwordRequired);
      return;
    }

    setSubmitting(true);
    try {
      if (isRegister) {
        await signUp({
          name: name.trim(),
          email: email.trim(),
          password,
          confirmPassword,
          acceptTerms,
          confirmAge,
          ...(inviteCode.trim() ? { inviteCode: inviteCode.trim().toUpperCase() } : {}),
        });
      } else {
        await signIn({ email: email.trim(), password });
      }
      navigate('/dashboard', { replace: true });
    } catch (err) {
      setError(errorMessage(err, appMessages.unexpected));
      setSubmitting(false);
    }
  };

  if (mode === 'forgot') {
    return (
      <Suspense fallback={null}>
        <ForgotPasswordForm
          initialEmail={email}
          onBack={() => {
            setMode('login');
            setError(null);
          }}
        />
      </Suspense>
    );
  }

  return (
    <div className="panel w-full p-6 shadow-2xl shadow-black/40 sm:p-8">
      <div className="mb-6">
        <h2 className="text-2xl font-bold tracking-tight text-white">
          {isRegister ? 'Create your account' : 'Welcome back'}
        </h2>
        <p className="mt-1 text-sm text-zinc-400">
          {isRegister
            ? 'Start creating with AI in less than a minute.'
            : 'Sign in to continue to your AI workspace.'}
        </p>
      </div>

      <FormError message={error} className="mb-5" />

      <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label={isRegister ? 'Create account' : 'Sign in'}>
        {isRegister && <register.NameField value={name} onChange={(v) => change('name', v)} />}

        <EmailField value={email} onChange={setEmail} />

        <LabeledInput
          label="Password"
          icon={<Lock />}
          inputClassName="pr-11"
          type={showPassword ? 'text' : 'password'}
          autoComplete={isRegister ? 'new-password' : 'current-password'}
          placeholder={isRegister ? 'At least 6 characters' : 'Your password'}
          value={password}
          onChange={setPassword}
          after={
            <button
              type="button"
              onClick={() => setShowPassword((v) => !v)}
              aria-pressed={showPassword}
              className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-xl text-zinc-400 transition hover:text-white"
            >
              {showPassword ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
              <span className="sr-only">{showPassword ? 'Hide password' : 'Show password'}</span>
            </button>
          }
        />

        {!isRegister && (
          <div className="-mt-2 flex justify-end">
            <button
              type="button"
              onClick={() => {
                setMode('forgot');
                setError(null);
              }}
              className="rounded text-sm font-medium text-fuchsia-400 underline-offset-4 hover:text-fuchsia-300 hover:underline"
            >
              Forgot password?
            </button>
          </div>
        )}

        {isRegister && <register.RegisterFields values={values} onChange={change} showPassword={showPassword} referralOnly={referralOnly} />}

        <Button type="submit" loading={submitting} className="w-full py-3">
          {isRegister ? (submitting ? 'Creating account...' : 'Create Account') : submitting ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>

      <p className="mt-6 text-center text-sm text-zinc-400">
        {isRegister ? 'Already have an account?' : "Don't have an account?"}{' '}
        <button
          type="button"
          onClick={switchMode}
          // The register part starts loading as the pointer or the focus comes to 'Sign up'.
          onPointerEnter={loadRegisterPart}
          onFocus={loadRegisterPart}
          onPointerDown={loadRegisterPart}
          className="rounded font-semibold text-fuchsia-400 underline-offset-4 hover:text-fuchsia-300 hover:underline"
        >
          {isRegister ? 'Sign in' : 'Sign up'}
        </button>
      </p>
    </div>
  );
}
