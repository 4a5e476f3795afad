import type { Db, Queryable } from '../../db/db.js';
import type { MailTransport } from './mail-transport.js';
import { renderMail, type MailTemplate } from './mail.templates.js';
import * as repo from './mail.repo.js';

/** What the mail service needs of the job queue: built with the services, it sends only once started. */
export interface MailQueuePort {
  readonly running: boolean;
  sendMail(mailId: string, tx?: Queryable): Promise<void>;
}

/** Attempts before a mail is given up (the queue retries with backoff in between). */
export const MAIL_MAX_ATTEMPTS = 5;

interface Log {
  warn: (obj: unknown, msg?: string) => void;
  info: (obj: unknown, msg?: string) => void;
}

/**
 * Mails are rows first, then a queue job delivers them: a request never
 * waits on an SMTP server, and a mail written in a transaction is sent only
 * if that transaction commits.
 */
export class MailService {
  constructor(
    private readonly db: Db,
    private readonly transport: MailTransport | null,
    private readonly queue: MailQueuePort,
    private readonly publicUrl: string,
    private readonly log: Log,
  ) {}

  get enabled(): boolean {
    return this.transport !== null;
  }

  /** Start-up check: the SMTP server answers and takes our credentials. */
  async checkTransport(): Promise<void> {
    await this.transport?.verify();
  }

  /** Stores the mail and queues its delivery (inside tx when given). Returns the mail id, or null when mail is off. */
  async send(to: string, template: MailTemplate, opts: { userId?: string; tx?: Queryable } = {}): Promise<string | null> {
    if (!this.transport) {
      this.log.warn({ template: template.kind }, 'mail not sent: set SMTP_URL (or MAIL_OUTBOX=on)');
      return null;
    }
    const rendered = renderMail(template, this.publicUrl);
    const q = opts.tx ?? this.db;
    const { id } = await repo.insertMail(q, {
      userId: opts.userId,
      to,
      template: template.kind,
      ...rendered,
      transport: this.transport.kind,
    });
    // While the queue is not running the row waits; requeueWaiting() picks it up at start.
    if (this.queue.running) await this.queue.sendMail(id, opts.tx);
    return id;
  }

  /** One delivery attempt (the queue job). Throws to ask for a retry. */
  async deliver(mailId: string): Promise<void> {
    if (!this.transport) return;
    const row = await repo.claimAttempt(this.db, mailId);
    if (!row) return; // sent already, or failed for good
    try {
      await this.transport.deliver({ to: row.to_address, subject: row.subject, text: row.text_body ?? '', html: row.html_body ?? '' });
      await repo.markSent(this.db, row.id, this.transport.kind === 'smtp');
    } catch (err) {
      const final = row.attempts >= MAIL_MAX_ATTEMPTS;
      await repo.markError(this.db, row.id, (err as Error).message ?? String(err), final);
      this.log.warn({ err, mailId, attempt: row.attempts, final }, 'mail delivery failed');
      if (!final) throw err;
    }
  }

  /** Mails stored while no queue was running (the job id is the mail id, so nothing is sent twice). */
  async requeueWaiting(): Promise<number> {
    if (!this.queue.running) return 0;
    const rows = await repo.listQueued(this.db);
    for (const r of rows) await this.queue.sendMail(r.id);
    return rows.length;
  }

  listOutbox(limit = 100) {
    return repo.listOutbox(this.db, limit);
  }

  findOutboxMail(id: string) {
    return repo.findOutboxMail(this.db, id);
  }

  close(): void {
    this.transport?.close();
  }
}
