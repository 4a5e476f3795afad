import type { ReactNode } from 'react';
import { AlertCircle, RotateCw } from 'lucide-react';
import clsx from 'clsx';
import { Button } from './Button';

/** Red error box, optionally with a retry button. */
export function ErrorBox({ children, onRetry, retryLabel = 'Try Again', className }: { children: ReactNode; onRetry?: () => void; retryLabel?: string; className?: string }) {
  return (
    <div
      role="alert"
      className={clsx('flex flex-wrap items-start gap-2.5 rounded-xl border border-red-500/40 bg-red-500/10 px-3.5 py-3 text-sm text-red-300', className)}
    >
      <AlertCircle className="mt-0.5 size-4 shrink-0 text-red-400" aria-hidden="true" />
      <span className="min-w-0 flex-1 break-words">{children}</span>
      {onRetry && (
        <Button variant="secondary" size="sm" onClick={onRetry} className="shrink-0">
          <RotateCw className="size-3.5" aria-hidden="true" /> {retryLabel}
        </Button>
      )}
    </div>
  );
}
