import type { ReactNode } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { Notice } from './Notice';

/** Green confirmation box. */
export function SuccessBox({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <Notice tone="success" icon={CheckCircle2} className={className}>
      {children}
    </Notice>
  );
}
