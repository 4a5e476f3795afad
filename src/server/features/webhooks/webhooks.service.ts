import type { Db } from '../../db/db.js';
import { SafeFetchError, SafeFetcher } from '../../net/safe-fetch.js';
import { SIGNATURE_HEADER, signatureHeader, signingSecretFor } from './webhook-signature.js';
import * as repo from './webhooks.repo.js';
import { webhookMessages, type WebhookDelivery, type WebhookEvent } from '../../../shared/webhooks.schema.js';
import { AppError } from '../../core/errors.js';
import { createdKey, decodeOptionalCursor, pageOf } from '../../core/cursor.js';
import type { Page } from '../../../shared/page.schema.js';

export interface WebhookSettings {
  appSecret: string;
  /** First retry delay; each later one doubles, up to maxDelaySeconds. */
  retryBaseSeconds: number;
  maxDelaySeconds: number;
  /** A delivery still failing this long after the run ended is given up. */
  giveUpAfterSeconds: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: Omit<WebhookSettings, 'appSecret'> = {
  retryBaseSeconds: 30,
  maxDelaySeconds: 2 * 3600,
  giveUpAfterSeconds: 24 * 3600,
};

const LEASE_SECONDS = 60;
const BATCH = 10;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/**
 * Sends run webhooks: signed POSTs with retries and a log per attempt.
 * Deliveries are rows written by the database when a run ends (see the
 * migration), so sending is at-least-once per attempt and once per run.
 */
export class WebhooksService {
  constructor(
    private readonly db: Db,
    private readonly fetcher: SafeFetcher,
    private readonly settings: WebhookSettings,
  ) {}

  signingSecret(userId: string): string {
    return signingSecretFor(this.settings.appSecret, userId);
  }

  /** Checks a webhook URL before a run is charged: its form and every address it resolves to. */
  async assertDeliverable(rawUrl: string): Promise<void> {
    try {
      await this.fetcher.checkHost(SafeFetcher.parse(rawUrl));
    } catch (err) {
      if (err instanceof SafeFetchError) throw new AppError('validation', `${webhookMessages.invalidUrl}. ${err.message}`);
      throw err;
    }
  }

  /** Sends what is due; returns how many were attempted. Safe in any number of processes at once. */
  async dispatchDue(): Promise<number> {
    const due = await repo.claimDue(this.db, BATCH, LEASE_SECONDS);
    await Promise.all(due.map((d) => this.attempt(d)));
    return due.length;
  }

  async list(userId: string, limit: number, cursor?: string): Promise<Page<WebhookDelivery>> {
    const rows = await repo.listDeliveries(this.db, userId, limit + 1, decodeOptionalCursor(cursor, createdKey));
    const { rows: page, next_cursor } = pageOf(rows, limit, (r) => [r.cursor_us, r.id]);
    const attempts = await repo.attemptsOf(this.db, page.map((r) => r.id));
    const items = page.map((r) => ({
      id: r.id,
      job_id: r.job_id,
      url: r.url,
      event: r.event,
      status: r.status,
      attempts: r.attempts,
      next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : null,
      last_status: r.last_status,
      last_error: r.last_error,
      created_at: iso(r.created_at)!,
      delivered_at: iso(r.delivered_at),
      log: attempts
        .filter((a) => a.delivery_id === r.id)
        .map((a) => ({ attempt: a.attempt, status_code: a.status_code, error: a.error, duration_ms: a.duration_ms, at: iso(a.created_at)! })),
    }));
    return { items, next_cursor };
  }

  private async attempt(d: repo.DeliveryRow): Promise<void> {
    const attempt = d.attempts + 1;
    const job = await repo.jobSummary(this.db, d.job_id);
    const event: WebhookEvent = {
      id: d.id,
      type: d.event,
      created_at: iso(d.created_at)!,
      data: {
        job_id: d.job_id,
        tool: job?.tool ?? '',
        status: job?.status ?? d.event.replace(/^job\./, ''),
        result: job?.result ?? null,
        error: job?.error ?? null,
        library_item_id: job?.library_item_id ?? null,
        energy_used: job && job.status === 'succeeded' ? job.cost : 0,
        energy_refunded: job && job.status !== 'succeeded' ? job.cost : 0,
        finished_at: iso(job?.finished_at ?? null),
      },
    };
    const body = JSON.stringify(event);
    const started = Date.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      statusCode = await this.fetcher.postJson(d.url, body, {
        [SIGNATURE_HEADER]: signatureHeader(this.signingSecret(d.user_id), body),
        'pixelrush-delivery': d.id,
        'pixelrush-attempt': String(attempt),
      });
      if (statusCode < 200 || statusCode > 299) error = `HTTP ${statusCode}`;
    } catch (err) {
      error = err instanceof SafeFetchError ? err.message : 'Could not deliver';
    }
    const duration = Date.now() - started;
    await this.db.transaction(async (tx) => {
      await repo.recordAttempt(tx, { delivery_id: d.id, attempt, status_code: statusCode, error, duration_ms: duration });
      if (!error) {
        await repo.markDelivered(tx, d.id, attempt, statusCode!);
        return;
      }
      const delay = Math.min(this.settings.retryBaseSeconds * 2 ** (attempt - 1), this.settings.maxDelaySeconds);
      const age = (Date.now() - new Date(d.created_at).getTime()) / 1000;
      await repo.markRetry(tx, d.id, attempt, statusCode, error, delay, age + delay > this.settings.giveUpAfterSeconds);
    });
  }
}
