import clsx from 'clsx';
import { AlertCircle } from 'lucide-react';

/** A form's refusal, read out when it appears; nothing when there is none. */
export function FormError({ message, className }: { message: string | null | undefined; className?: string }) {
  if (!message) return null;
  return (
    <div role="alert" className={clsx('flex items-start gap-2.5 rounded-xl border border-red-500/40 bg-red-500/10 px-3.5 py-3 text-sm text-red-300', className)}>
      <AlertCircle className="mt-0.5 size-4 shrink-0 text-red-400" aria-hidden="true" />
      <span>{message}</span>
    </div>
  );
}
