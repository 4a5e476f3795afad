import { PRODUCT_NAME } from '../../../shared/constants.js';

/** Every mail the app sends, with what it needs to say. */
export type MailTemplate =
  | { kind: 'password_reset'; name: string; link: string; minutes: number }
  | { kind: 'email_verification'; name: string; link: string }
  | { kind: 'password_changed'; name: string }
  | { kind: 'export_ready'; name: string; link: string; hours: number };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Body {
  subject: string;
  greeting: string;
  lines: string[];
  action?: { label: string; link: string };
  after?: string[];
}

function body(t: MailTemplate): Body {
  switch (t.kind) {
    case 'password_reset':
      return {
        subject: `Reset your ${PRODUCT_NAME} password`,
        greeting: t.name,
        lines: ['Someone (hopefully you) asked to reset the password of your account.'],
        action: { label: 'Choose a new password', link: t.link },
        after: [
          `The link works once and expires in ${t.minutes} minutes. Using it signs out every other device.`,
          'If you did not ask for this, ignore this mail: your password stays as it is.',
        ],
      };
    case 'email_verification':
      return {
        subject: `Confirm your e-mail for ${PRODUCT_NAME}`,
        greeting: t.name,
        lines: ['Please confirm that this is your e-mail address.'],
        action: { label: 'Confirm my e-mail', link: t.link },
        after: ['Until then you can look around, but not buy ENERGY or run tools.'],
      };
    case 'password_changed':
      return {
        subject: `Your ${PRODUCT_NAME} password was changed`,
        greeting: t.name,
        lines: [
          'The password of your account was just changed, and every other device was signed out.',
          'If this was not you, use "Forgot password?" on the sign-in page to take the account back.',
        ],
      };
    case 'export_ready':
      return {
        subject: `Your ${PRODUCT_NAME} data is ready`,
        greeting: t.name,
        lines: ['The archive of your account data you asked for is ready.'],
        action: { label: 'Download my data', link: t.link },
        after: [`The link works for ${t.hours} hours.`],
      };
  }
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Plain text plus simple HTML, both naming the product and its address. */
export function renderMail(t: MailTemplate, publicUrl: string): RenderedMail {
  const b = body(t);
  const footer = `${PRODUCT_NAME} · ${publicUrl}`;
  const text = [
    `Hi ${b.greeting},`,
    '',
    ...b.lines,
    ...(b.action ? ['', `${b.action.label}:`, b.action.link] : []),
    ...(b.after ? ['', ...b.after] : []),
    '',
    '--',
    footer,
    '',
  ].join('\n');
  const p = (s: string) => `<p style="margin:0 0 12px">${escape(s)}</p>`;
  const html = `<!doctype html>
<html><body style="margin:0;padding:24px;background:#f4f4f5;font-family:system-ui,sans-serif;color:#18181b">
<div style="max-width:520px;margin:0 auto;background:#fff;border-radius:12px;padding:24px">
<h1 style="margin:0 0 16px;font-size:20px">${escape(PRODUCT_NAME)}</h1>
${p(`Hi ${b.greeting},`)}
${b.lines.map(p).join('\n')}
${
  b.action
    ? `<p style="margin:20px 0"><a href="${escape(b.action.link)}" style="display:inline-block;background:#a21caf;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">${escape(b.action.label)}</a></p>
<p style="margin:0 0 12px;font-size:12px;color:#52525b">Or paste this address into your browser: ${escape(b.action.link)}</p>`
    : ''
}
${(b.after ?? []).map(p).join('\n')}
<p style="margin:24px 0 0;font-size:12px;color:#71717a"><a href="${escape(publicUrl)}" style="color:#71717a">${escape(footer)}</a></p>
</div></body></html>
`;
  return { subject: b.subject, text, html };
}

/** The links in a plain-text body (the outbox page lists them). */
export function linksIn(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"]+/g) ?? [])];
}
