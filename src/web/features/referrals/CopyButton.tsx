import { useEffect, useRef, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { toast } from '../../lib/toast';
import clsx from 'clsx';
import { copyText } from './referralsApi';

/** requirements §9: the copy confirmation shows for 2 seconds. */
export const COPIED_MS = 2_000;

/** A Copy button that reads 'Copied!' for two seconds after a successful copy. */
export function CopyButton({ text, label = 'Copy', className }: { text: string; label?: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onCopy = async () => {
    const ok = await copyText(text);
    if (!ok) {
      toast.error('Could not copy. Select the code and copy it yourself.');
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };

  return (
    <>
    <button
      type="button"
      onClick={() => void onCopy()}
      aria-label={`${label} ${text}`}
      className={clsx(
        'btn btn-sm border transition-colors',
        copied ? 'border-emerald-500/40 bg-emerald-500/15 text-emerald-300' : 'border-zinc-700 bg-zinc-800/70 text-zinc-100 hover:border-zinc-600 hover:bg-zinc-700/70',
        className,
      )}
    >
      {copied ? <Check className="size-3.5" aria-hidden="true" /> : <Copy className="size-3.5" aria-hidden="true" />}
      <span>{copied ? 'Copied!' : label}</span>
    </button>
    <span role="status" className="sr-only">
      {copied ? `Copied ${text}` : ''}
    </span>
    </>
  );
}
