import { AlertCircle } from 'lucide-react';
import { Notice } from './Notice';

/** A form's refusal, read out when it appears; nothing when there is none. */
export function FormError({ message, className }: { message: string | null | undefined; className?: string }) {
  if (!message) return null;
  return (
    <Notice tone="error" icon={AlertCircle} className={className}>
      {message}
    </Notice>
  );
}
