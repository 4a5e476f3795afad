import type { Db } from '../../db/db.js';
import type { Logger } from '../../app-context.js';
import type { WebhooksService } from './webhooks.service.js';

const POLL_MS = 2_000;

/**
 * Sends due webhooks in the background of a worker process: woken at once
 * when a run ends (the trigger's NOTIFY), and by a timer for retries that
 * come due later. Several processes may run one each.
 */
export async function startWebhookDispatcher(db: Db, webhooks: WebhooksService, log: Logger): Promise<{ stop(): Promise<void> }> {
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;

  const drain = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          while (!stopped && (await webhooks.dispatchDue()) > 0);
        } while (again && !stopped);
      } catch (err) {
        log.warn({ err }, 'webhook dispatch failed');
      } finally {
        running = null;
      }
    })();
  };

  const unlisten = await db.listen('webhooks', drain).catch(() => null);
  const timer = setInterval(drain, POLL_MS);
  timer.unref();
  drain();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await unlisten?.();
      await running;
    },
  };
}
