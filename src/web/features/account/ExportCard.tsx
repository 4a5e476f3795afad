import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { toast } from '../../lib/toast';
import { Button } from '../../components/Button';
import { errorMessage } from '../../lib/api';
import { accountApi, accountKeys } from './accountApi';
import { Card } from './Card';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function ExportCard() {
  const id = useId();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const exports = useQuery({
    queryKey: accountKeys.exports,
    queryFn: accountApi.exports,
    // While an archive is being built, look again now and then.
    refetchInterval: (q) => (q.state.data?.some((e) => e.status === 'building') ? 5_000 : false),
  });

  const start = async () => {
    setBusy(true);
    try {
      const res = await accountApi.startExport();
      if (res.mode === 'inline') {
        // A plain navigation: the browser streams the ZIP straight to disk.
        window.location.assign(res.url);
      } else {
        toast.success(res.message);
        await qc.invalidateQueries({ queryKey: accountKeys.exports });
      }
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      labelId={`${id}-title`}
      title="Download my data"
      description="A ZIP of your profile, ENERGY history, jobs, invites and referrals, with every original in your library."
      icon={<Download />}
    >
      <Button variant="secondary" onClick={start} loading={busy} className="w-full sm:w-auto">
        <Download className="size-4" aria-hidden="true" /> Download my data
      </Button>
      {!!exports.data?.length && (
        <ul className="mt-4 space-y-2 text-sm" aria-label="Archives">
          {exports.data.map((e) => (
            <li key={e.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-zinc-950/40 px-3 py-2">
              <span className="text-zinc-300">{when.format(new Date(e.created_at))}</span>
              {e.status === 'ready' && e.url ? (
                <a href={e.url} className="font-semibold text-fuchsia-400 hover:text-fuchsia-300">
                  Download ZIP
                </a>
              ) : (
                <span className={e.status === 'failed' ? 'text-red-300' : 'text-zinc-400'}>{e.status === 'failed' ? 'Failed' : 'Building...'}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
