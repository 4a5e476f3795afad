import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  url: string;
  received: ParsedMail[];
  /** Waits for a mail to `to` matching the subject pattern (newest first). */
  waitFor(to: string, subject?: RegExp, timeoutMs?: number): Promise<ParsedMail>;
  /** Mails so far to an address. */
  to(address: string): ParsedMail[];
  close(): Promise<void>;
}

/** Tests only: a real SMTP server in-process that keeps what it receives. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.server.address() as AddressInfo).port;
  const toOf = (m: ParsedMail) => (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) => a.value.map((v) => v.address));
  const sink: SmtpSink = {
    url: `smtp://127.0.0.1:${bound}`,
    received,
    to: (address) => received.filter((m) => toOf(m).includes(address)),
    async waitFor(to, subject, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const hit = sink.to(to).reverse().find((m) => !subject || subject.test(m.subject ?? ''));
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms (got ${received.length})`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return sink;
}

/** The first link to our app in a mail's plain text. */
export function linkIn(mail: ParsedMail, path: string): URL {
  const m = (mail.text ?? '').match(new RegExp(`https?://\\S+${path.replace(/[/?]/g, '\\$&')}\\S*`));
  if (!m) throw new Error(`no ${path} link in: ${mail.text}`);
  return new URL(m[0]);
}
