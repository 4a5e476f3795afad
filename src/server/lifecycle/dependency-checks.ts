import type { Logger } from 'pino';
import type { Config } from '../config.js';

/**
 * Start-up checks of what the app depends on. Each failure is one line that names the
 * dependency and what was tried, never a stack trace: the operator reads it in a
 * container's log and fixes a setting. The database and storage are retried with
 * backoff (a database and an app started together by compose come up in either order);
 * then the app exits. Mail and a cloud AI provider only warn: mail is queued and
 * retried, and an AI outage fails runs (refunded), not the whole site.
 */
export type Dependency = 'database' | 'storage' | 'payments' | 'mail' | 'AI provider';

export class DependencyError extends Error {
  constructor(
    readonly dependency: Dependency,
    detail: string,
  ) {
    super(`${dependency}: ${detail}`);
    this.name = 'DependencyError';
  }
}

/** The words of an error without its stack: the deepest cause that says something. */
export function reasonOf(err: unknown): string {
  const e = err as { message?: string; name?: string; code?: string; errors?: unknown[] } | null;
  if (!e) return 'unknown error';
  // Node's connect errors for a name with several addresses arrive as an AggregateError with no message.
  if (!e.message && Array.isArray(e.errors) && e.errors.length) return reasonOf(e.errors[0]);
  const message = (e.message ?? String(err)).split('\n')[0]!.trim();
  const code = typeof e.code === 'string' && !message.includes(e.code) ? ` (${e.code})` : '';
  return (message || e.name || 'unknown error') + code;
}

export interface RetryOptions {
  /** How long to keep trying, in seconds (STARTUP_WAIT_SECONDS). */
  waitSeconds: number;
  log: Pick<Logger, 'warn'>;
  /** First pause between tries; it doubles up to 10 s. */
  firstDelayMs?: number;
}

/**
 * Tries `attempt` until it succeeds or `waitSeconds` have passed, pausing 0.5, 1, 2, 4... s between
 * tries; each failure is a warning naming the dependency, the last one a DependencyError.
 * `where` says what was tried (a host, a bucket), never a secret.
 */
export async function withBackoff<T>(dependency: Dependency, where: string, attempt: () => Promise<T>, opts: RetryOptions): Promise<T> {
  const until = Date.now() + opts.waitSeconds * 1000;
  let delay = opts.firstDelayMs ?? 500;
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      const reason = reasonOf(err);
      const left = until - Date.now();
      if (left <= 0) {
        const span = opts.waitSeconds > 0 ? ` after ${tries} ${tries === 1 ? 'try' : 'tries'} over ${opts.waitSeconds} s` : '';
        throw new DependencyError(dependency, `cannot reach ${where}${span}: ${reason}`);
      }
      const pause = Math.min(delay, left);
      opts.log.warn({ dependency, try: tries, retryInMs: pause }, `${dependency}: cannot reach ${where} (${reason}); trying again`);
      await new Promise((r) => setTimeout(r, pause));
      delay = Math.min(delay * 2, 10_000);
    }
  }
}

/** A host and port (or the local path) for messages: never a URL's user name or password. */
export function describeDatabase(config: Pick<Config, 'DATABASE_URL' | 'dataDir'>): string {
  if (!config.DATABASE_URL) return `the embedded database in ${config.dataDir}`;
  const url = new URL(config.DATABASE_URL);
  return `PostgreSQL at ${url.hostname}:${url.port || '5432'}`;
}

export function describeStorage(config: Pick<Config, 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'dataDir'>): string {
  if (!config.S3_BUCKET) return `local storage in ${config.dataDir}`;
  const where = config.S3_ENDPOINT ? new URL(config.S3_ENDPOINT).host : `s3.${config.S3_REGION}.amazonaws.com`;
  return `S3 bucket '${config.S3_BUCKET}' at ${where}`;
}

/** Fails with a reason when `promise` takes longer than `ms` (a silently dropped connection). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Settings that start but leave a production site unable to do its job: said loudly at start.
 * (Mail that cannot reach anyone while e-mail verification is on is refused by the config itself.)
 */
export function productionWarnings(config: Pick<Config, 'isProduction' | 'payments'>): string[] {
  if (!config.isProduction) return [];
  const warnings: string[] = [];
  if (config.payments === 'disabled') {
    warnings.push('payments: buying ENERGY is OFF (no STRIPE_SECRET_KEY): the Buy ENERGY screens say so and nobody can pay');
  }
  return warnings;
}

/** Any HTTP answer from fal's queue host will do: this is about the network path, not the key. */
export async function checkFalReachable(config: Pick<Config, 'aiProviders' | 'defaultAiProvider' | 'FAL_API_BASE'>): Promise<void> {
  const usesFal = config.defaultAiProvider === 'fal' || Object.values(config.aiProviders).includes('fal');
  if (!usesFal) return;
  const base = (config.FAL_API_BASE ?? 'https://queue.fal.run').replace(/\/+$/, '');
  await fetch(`${base}/`, { method: 'HEAD', signal: AbortSignal.timeout(5000) }).then((r) => r.body?.cancel());
}
