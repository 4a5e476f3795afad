import { CheckCircle2, CircleMinus, ScanSearch } from 'lucide-react';
import type { RestoreFindings as Findings } from './schemas.js';

/** What restore found in the photo and what it repaired, in plain words. */
export function RestoreFindings({ findings }: { findings: Findings }) {
  return (
    <section className="panel space-y-3 p-5 sm:p-6" aria-labelledby="restore-findings-title" data-testid="restore-findings">
      <h3 id="restore-findings-title" className="flex items-center gap-2 text-base font-semibold text-white">
        <ScanSearch className="size-5 text-amber-300" aria-hidden="true" />
        What we found
      </h3>
      <p className="text-sm text-zinc-200" data-testid="restore-findings-summary">
        {findings.summary}
      </p>
      {findings.found.length > 0 && (
        <ul className="space-y-2 text-sm">
          {findings.found.map((f) => (
            <li key={f.kind} className="flex items-start gap-2" data-testid={`finding-${f.kind}`}>
              {f.fixed ? (
                <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-400" aria-label="Repaired" />
              ) : (
                <CircleMinus className="mt-0.5 size-4 shrink-0 text-zinc-400" aria-label="Left as found" />
              )}
              <span className="text-zinc-300">{f.text}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
