import type { TestApp } from './test-app.js';

/** The bodies of the password-reset mails written to `email` once the account's background work has settled, newest first. */
export async function resetMailsTo(t: TestApp, email: string): Promise<string[]> {
  await t.ctx.services.account.settled();
  const rows = await t.db.query<{ text_body: string }>(
    `SELECT text_body FROM mail_messages WHERE to_address = $1 AND template = 'password_reset' ORDER BY created_at DESC`,
    [email],
  );
  return rows.map((r) => r.text_body);
}
