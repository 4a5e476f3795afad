import { Link } from 'react-router';
import { CheckCircle2 } from 'lucide-react';
import { Logo } from '../../components/Logo';

/** SPEC §2 payment success page. Placeholder: the countdown and refresh arrive with payments. */
export default function SuccessPage() {
  return (
    <div className="app-bg flex min-h-dvh flex-col items-center justify-center px-6 text-center">
      <Logo />
      <div className="panel mt-10 w-full max-w-md p-8">
        <CheckCircle2 className="mx-auto size-14 text-emerald-400" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-bold text-white">Payment Successful!</h1>
        <p className="mt-2 text-sm text-zinc-400">Your ENERGY has been added to your account.</p>
        <Link to="/dashboard" className="btn btn-primary mt-6 w-full">
          Go to Dashboard
        </Link>
      </div>
    </div>
  );
}
