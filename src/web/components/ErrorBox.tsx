import type { ReactNode } from 'react';
import { AlertCircle, RotateCw } from 'lucide-react';
import { Button } from './Button';
import { Notice } from './Notice';

/** Red error box, optionally with a retry button. */
export function ErrorBox({ children, onRetry, retryLabel = 'Try Again', className }: { children: ReactNode; onRetry?: () => void; retryLabel?: string; className?: string }) {
  const retry = onRetry && (
    <Button variant="secondary" size="sm" onClick={onRetry} className="shrink-0">
      <RotateCw className="size-3.5" aria-hidden="true" /> {retryLabel}
    </Button>
  );
  return (
    <Notice tone="error" icon={AlertCircle} after={retry} className={className}>
      {children}
    </Notice>
  );
}
