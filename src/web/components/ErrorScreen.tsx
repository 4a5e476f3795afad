import { AlertTriangle, RotateCw } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../lib/queryKeys';
import { Button } from './Button';

/** The session could not be loaded (server unreachable or failing): say so, offer a retry. */
export function ErrorScreen({ error }: { error: Error | null }) {
  const qc = useQueryClient();
  return (
    <div className="app-bg flex min-h-dvh items-center justify-center px-6">
      <div className="w-full max-w-md rounded-2xl border border-zinc-800 bg-zinc-900/70 p-8 text-center shadow-2xl">
        <AlertTriangle className="mx-auto size-10 text-amber-400" aria-hidden="true" />
        <h1 className="mt-4 text-xl font-semibold text-white">We could not load your workspace</h1>
        <p className="mt-2 text-sm text-zinc-400" role="alert">
          Failed to load user profile: {error?.message ?? 'unknown error'}
        </p>
        <Button className="mt-6" onClick={() => void qc.resetQueries({ queryKey: queryKeys.me })}>
          <RotateCw className="size-4" aria-hidden="true" /> Try Again
        </Button>
      </div>
    </div>
  );
}
