import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Check, Cloud, Loader2 } from 'lucide-react';
import type { EditInterpretationAnswer } from '../../shared/edit-language/interpretation.schema.js';
import { call, client } from '../../web/lib/api';

/** The server's reading of the request, asked for after a pause in typing (nothing is charged). */
export function useEditInterpretation(prompt: string): { reading: EditInterpretationAnswer | undefined; pending: boolean } {
  const [settled, setSettled] = useState(prompt);
  useEffect(() => {
    const t = setTimeout(() => setSettled(prompt), 350);
    return () => clearTimeout(t);
  }, [prompt]);
  const text = settled.trim();
  const query = useQuery({
    queryKey: ['edit-interpretation', text],
    queryFn: ({ signal }) => call(client.POST('/api/tools/fal-image-editor/interpret', { body: { prompt: text }, signal })),
    enabled: text.length > 0,
    staleTime: 5 * 60_000,
  });
  return { reading: text ? query.data : undefined, pending: prompt.trim() !== text || query.isFetching };
}

/** 'Will apply: brightness +20%, vignette, crop 16:9', or why it will not run and what to try instead. */
export function EditInterpretationView({ reading, pending, onSuggestion }: { reading: EditInterpretationAnswer | undefined; pending: boolean; onSuggestion: (text: string) => void }) {
  if (!reading) {
    return pending ? (
      <p className="mt-2 flex items-center gap-1.5 text-xs text-zinc-400" role="status">
        <Loader2 className="size-3.5 animate-spin" aria-hidden="true" /> Reading your request…
      </p>
    ) : null;
  }
  if (reading.status === 'cloud') {
    return (
      <p className="mt-2 flex items-center gap-1.5 text-xs text-zinc-400" data-testid="edit-interpretation" role="status">
        <Cloud className="size-3.5" aria-hidden="true" /> The cloud AI editor takes your words as written.
      </p>
    );
  }
  if (reading.status === 'ready') {
    return (
      <div className="mt-2 text-xs" data-testid="edit-interpretation" role="status" aria-live="polite">
        <p className="flex flex-wrap items-center gap-1.5 text-emerald-300">
          <Check className="size-3.5" aria-hidden="true" />
          <span className="text-zinc-300">Will apply:</span>
          {reading.steps.map((s, i) => (
            <span key={`${s.label}-${i}`} className="rounded-md bg-emerald-500/10 px-1.5 py-0.5 font-medium ring-1 ring-emerald-500/25">
              {s.label}
            </span>
          ))}
        </p>
        <p className="mt-1 text-zinc-400">Not what you meant? Change the words and the list updates.</p>
      </div>
    );
  }
  if (reading.status === 'empty') return null;
  return (
    <div className="mt-2 rounded-lg border border-amber-500/30 bg-amber-500/10 p-2.5 text-xs text-amber-100" data-testid="edit-interpretation" role="status" aria-live="polite">
      <p className="flex items-start gap-1.5">
        <AlertTriangle className="mt-0.5 size-3.5 shrink-0 text-amber-300" aria-hidden="true" />
        <span>{reading.message}</span>
      </p>
      {reading.suggestions.length > 0 && (
        <div className="mt-2 flex flex-wrap items-center gap-1.5">
          <span className="text-amber-200/80">Try instead:</span>
          {reading.suggestions.map((s) => (
            <button
              key={s}
              type="button"
              onClick={() => onSuggestion(s.replace(/^'|'$/g, ''))}
              className="rounded-full border border-amber-400/40 px-2 py-0.5 text-amber-50 transition hover:bg-amber-400/20"
            >
              {s.replace(/^'|'$/g, '')}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
