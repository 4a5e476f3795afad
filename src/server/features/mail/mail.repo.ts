import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';

export interface MailRow {
  id: string;
  user_id: string | null;
  to_address: string;
  template: string;
  subject: string;
  text_body: string | null;
  html_body: string | null;
  transport: 'smtp' | 'outbox';
  status: 'queued' | 'sent' | 'failed';
  attempts: number;
  error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

export function insertMail(
  db: Queryable,
  m: { userId?: string; to: string; template: string; subject: string; text: string; html: string; transport: 'smtp' | 'outbox' },
) {
  return one<{ id: string }>(
    db,
    `INSERT INTO mail_messages (user_id, to_address, template, subject, text_body, html_body, transport)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [m.userId ?? null, m.to, m.template, m.subject, m.text, m.html, m.transport],
  ) as Promise<{ id: string }>;
}

/** Counts an attempt on a mail still waiting; undefined when it was sent already. */
export function claimAttempt(db: Queryable, id: string) {
  return one<MailRow>(
    db,
    `UPDATE mail_messages SET attempts = attempts + 1 WHERE id = $1 AND status = 'queued' RETURNING *`,
    [id],
  );
}

/** SMTP mails lose their bodies once sent: links must not outlive delivery in the database. */
export function markSent(db: Queryable, id: string, clearBodies: boolean) {
  return db.query(
    `UPDATE mail_messages SET status = 'sent', sent_at = now(), error = NULL,
            text_body = CASE WHEN $2 THEN NULL ELSE text_body END,
            html_body = CASE WHEN $2 THEN NULL ELSE html_body END
      WHERE id = $1`,
    [id, clearBodies],
  );
}

export function markError(db: Queryable, id: string, error: string, final: boolean) {
  return db.query(
    `UPDATE mail_messages SET error = $2, status = CASE WHEN $3 THEN 'failed' ELSE status END,
            text_body = CASE WHEN $3 THEN NULL ELSE text_body END,
            html_body = CASE WHEN $3 THEN NULL ELSE html_body END
      WHERE id = $1`,
    [id, error.slice(0, 500), final],
  );
}

export function listQueued(db: Queryable) {
  return db.query<{ id: string }>(`SELECT id FROM mail_messages WHERE status = 'queued' ORDER BY created_at LIMIT 500`);
}

/** Delivered outbox mail only: the page shows what the delivery job handed over, as an inbox would. */
export function listOutbox(db: Queryable, limit: number) {
  return db.query<MailRow>(
    `SELECT * FROM mail_messages WHERE transport = 'outbox' AND status = 'sent' ORDER BY created_at DESC, id DESC LIMIT $1`,
    [limit],
  );
}

export function findOutboxMail(db: Queryable, id: string) {
  return one<MailRow>(db, `SELECT * FROM mail_messages WHERE transport = 'outbox' AND status = 'sent' AND id = $1`, [id]);
}

