import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where a stored mail goes when its delivery job runs. */
export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  deliver(mail: OutgoingMail): Promise<void>;
  /** Throws when the server cannot be reached or refuses the credentials (start-up check). */
  verify(): Promise<void>;
  close(): void;
}

/** SMTP_URL through nodemailer (pooled connections). */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url, { from });
  return {
    kind: 'smtp',
    async deliver(mail) {
      await transporter.sendMail({ from, ...mail });
    },
    async verify() {
      await transporter.verify();
    },
    close: () => transporter.close(),
  };
}

/** The dev outbox: the stored row is the delivery; the outbox page shows it. */
export const outboxTransport: MailTransport = {
  kind: 'outbox',
  deliver: async () => {},
  verify: async () => {},
  close: () => {},
};

export function createMailTransport(config: Pick<Config, 'mailTransport' | 'SMTP_URL' | 'mailFrom'>): MailTransport | null {
  if (config.mailTransport === 'smtp') return smtpTransport(config.SMTP_URL!, config.mailFrom);
  if (config.mailTransport === 'outbox') return outboxTransport;
  return null;
}
