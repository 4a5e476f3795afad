import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BookOpen, Eye, EyeOff, KeyRound, Plus, Trash2, Webhook } from 'lucide-react';
import { toast } from '../../lib/toast';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { ViewHeader } from '../../components/ViewHeader';
import { ApiError } from '../../lib/api';
import { CopyButton } from '../referrals/CopyButton';
import type { DashboardViewProps } from '../dashboard/view-ids';
import { API_KEY_NAME_MAX, type ApiKey } from '../../../shared/api-keys.schema.js';
import {
  apiKeysQueryKey,
  createApiKey,
  fetchWebhookSecret,
  listApiKeys,
  listWebhookDeliveries,
  revokeApiKey,
  webhookDeliveriesQueryKey,
  webhookSecretQueryKey,
} from './apiKeysApi';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');
const errorText = (err: unknown) => (err instanceof ApiError ? err.message : 'Something went wrong. Please try again.');

function Panel({ title, icon: Icon, children, action }: { title: string; icon: typeof KeyRound; children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <section className="rounded-2xl border border-zinc-800 bg-zinc-900/60 p-5 sm:p-6" aria-label={title}>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h3 className="flex items-center gap-2 text-lg font-semibold text-white">
          <Icon className="size-5 text-sky-300" aria-hidden="true" /> {title}
        </h3>
        {action}
      </div>
      {children}
    </section>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (token: string, key: ApiKey) => void }) {
  const [name, setName] = useState('');
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: () => createApiKey(name),
    onSuccess: (res) => {
      setName('');
      void queryClient.invalidateQueries({ queryKey: apiKeysQueryKey });
      onCreated(res.token, res.key);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate();
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm text-zinc-300">
        Key name
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={API_KEY_NAME_MAX}
          placeholder="e.g. Nightly upscale script"
          className="input"
        />
      </label>
      <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
        <Plus className="size-4" aria-hidden="true" /> Create key
      </Button>
      {create.isError && (
        <p role="alert" className="text-sm text-red-300 sm:basis-full">
          {errorText(create.error)}
        </p>
      )}
    </form>
  );
}

function KeyList() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: apiKeysQueryKey, queryFn: listApiKeys });
  const revoke = useMutation({
    mutationFn: (id: string) => revokeApiKey(id),
    onSuccess: (key) => {
      toast.success(`Key '${key.name}' revoked`);
      void queryClient.invalidateQueries({ queryKey: apiKeysQueryKey });
    },
    onError: (err) => toast.error(errorText(err)),
  });
  if (keys.isPending) return <p className="text-sm text-zinc-400">Loading keys...</p>;
  if (keys.isError) return <p role="alert" className="text-sm text-red-300">{errorText(keys.error)}</p>;
  if (keys.data.length === 0) return <p className="text-sm text-zinc-400">No API keys yet. Create one to script your tools.</p>;
  return (
    <ul className="divide-y divide-zinc-800" aria-label="Your API keys">
      {keys.data.map((k) => (
        <li key={k.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="min-w-0">
            <p className="truncate font-medium text-white">
              {k.name} {k.revoked_at && <span className="ml-1 rounded bg-zinc-800 px-1.5 py-0.5 text-xs text-zinc-400">Revoked</span>}
            </p>
            <p className="font-mono text-xs break-all text-zinc-400">{k.prefix}_••••••••</p>
            <p className="text-xs text-zinc-400">
              Created {when(k.created_at)} · Last used {when(k.last_used_at)}
            </p>
          </div>
          {!k.revoked_at && (
            <Button
              variant="secondary"
              size="sm"
              loading={revoke.isPending && revoke.variables === k.id}
              onClick={() => {
                if (window.confirm(`Revoke '${k.name}'? Scripts using it stop working at once.`)) revoke.mutate(k.id);
              }}
              aria-label={`Revoke ${k.name}`}
            >
              <Trash2 className="size-4" aria-hidden="true" /> Revoke
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

function SigningSecret() {
  const [shown, setShown] = useState(false);
  const secret = useQuery({ queryKey: webhookSecretQueryKey, queryFn: fetchWebhookSecret, enabled: shown });
  return (
    <div className="space-y-2 text-sm text-zinc-300">
      <p>
        Add <code className="text-sky-300">webhook_url</code> to any tool run and we POST the result there when the run ends, signed in
        the <code className="text-sky-300">PixelRush-Signature</code> header (HMAC-SHA256 of the timestamp and the raw body). Failed
        deliveries are retried for up to 24 hours.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="secondary" size="sm" onClick={() => setShown((s) => !s)} aria-expanded={shown}>
          {shown ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
          {shown ? 'Hide signing secret' : 'Show signing secret'}
        </Button>
        {shown && secret.data && (
          <>
            <code className="rounded bg-zinc-950 px-2 py-1 font-mono text-xs break-all text-zinc-200">{secret.data.secret}</code>
            <CopyButton text={secret.data.secret} />
          </>
        )}
      </div>
    </div>
  );
}

function Deliveries() {
  const deliveries = useQuery({ queryKey: webhookDeliveriesQueryKey, queryFn: listWebhookDeliveries, refetchInterval: 15_000 });
  if (deliveries.isPending) return <p className="text-sm text-zinc-400">Loading deliveries...</p>;
  if (deliveries.isError) return <p role="alert" className="text-sm text-red-300">{errorText(deliveries.error)}</p>;
  if (deliveries.data.length === 0) return <p className="text-sm text-zinc-400">No webhook deliveries yet.</p>;
  const tone = { delivered: 'text-emerald-300', pending: 'text-amber-300', failed: 'text-red-300' } as const;
  return (
    <ul className="divide-y divide-zinc-800 text-sm" aria-label="Recent webhook deliveries">
      {deliveries.data.map((d) => (
        <li key={d.id} className="py-2">
          <p className="flex flex-wrap items-center gap-x-2">
            <span className={`font-semibold ${tone[d.status]}`}>{d.status}</span>
            <span className="text-zinc-300">{d.event}</span>
            <span className="text-zinc-400">
              {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
              {d.last_status ? ` · HTTP ${d.last_status}` : ''}
            </span>
          </p>
          <p className="truncate font-mono text-xs text-zinc-400">{d.url}</p>
          {d.last_error && d.status !== 'delivered' && <p className="text-xs text-red-300">{d.last_error}</p>}
        </li>
      ))}
    </ul>
  );
}

/** Personal API keys, the webhook signing secret and recent deliveries. */
export default function ApiKeysView(_props: DashboardViewProps) {
  const [created, setCreated] = useState<{ token: string; key: ApiKey } | null>(null);
  return (
    <div className="space-y-6">
      <ViewHeader
        icon={KeyRound}
        title="API Keys"
        tone="bg-gradient-to-br from-sky-500/25 to-violet-500/10 text-sky-300 ring-sky-500/30"
        subtitle={
          <p className="mt-1 text-sm text-zinc-400">
            Script the tools from your own code. Runs made with a key are charged to you and marked with the key in your history.
          </p>
        }
      />

      <Panel
        title="Your keys"
        icon={KeyRound}
        action={
          <a href="/api/docs" target="_blank" rel="noreferrer" className="btn btn-sm btn-ghost">
            <BookOpen className="size-4" aria-hidden="true" /> API docs and quick start
          </a>
        }
      >
        <div className="space-y-5">
          <CreateKeyForm onCreated={(token, key) => setCreated({ token, key })} />
          <KeyList />
        </div>
      </Panel>

      <Panel title="Webhooks" icon={Webhook}>
        <div className="space-y-5">
          <SigningSecret />
          <Deliveries />
        </div>
      </Panel>

      <Modal
        open={!!created}
        onOpenChange={(open) => !open && setCreated(null)}
        title="Your new API key"
        description="Copy it now: it is shown only once. Anyone with it can run tools on your balance."
      >
        {created && (
          <div className="space-y-4">
            <code className="block rounded-lg bg-zinc-950 p-3 font-mono text-sm break-all text-emerald-200">{created.token}</code>
            <div className="flex flex-wrap justify-end gap-2">
              <CopyButton text={created.token} label="Copy key" />
              <Button onClick={() => setCreated(null)}>Done</Button>
            </div>
          </div>
        )}
      </Modal>
    </div>
  );
}
