import { Loader2 } from 'lucide-react';
import { appMessages } from '../../shared/app.messages.js';
import { LogoMark } from './Logo';

/** requirements §2: while the session loads, a full-screen view reads 'Loading your AI workspace...'. */
export function LoadingScreen() {
  return (
    <div className="app-bg flex min-h-dvh flex-col items-center justify-center gap-5 px-6 text-center" role="status" aria-live="polite">
      <LogoMark className="size-14 animate-pulse" />
      <div className="flex items-center gap-2 text-zinc-300">
        <Loader2 className="size-4 animate-spin text-fuchsia-400" aria-hidden="true" />
        <p className="text-base font-medium">{appMessages.loadingWorkspace}</p>
      </div>
    </div>
  );
}

/** A smaller in-page loader for lazy views. */
export function InlineLoader({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="flex items-center justify-center gap-2 py-16 text-sm text-zinc-400" role="status">
      <Loader2 className="size-4 animate-spin text-fuchsia-400" aria-hidden="true" />
      {label}
    </div>
  );
}
