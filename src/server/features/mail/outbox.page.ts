import { PRODUCT_NAME } from '../../../shared/constants.js';
import type { MailRow } from './mail.repo.js';
import { linksIn } from './mail.templates.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#0b0b12;color:#e7e7ee}
  main{max-width:860px;margin:0 auto;padding:32px 20px}
  h1{font-size:22px;margin:0 0 4px;display:flex;gap:10px;align-items:center;flex-wrap:wrap}
  .badge{font-size:11px;font-weight:700;background:#f59e0b;color:#1a1a23;border-radius:999px;padding:2px 8px;letter-spacing:.04em}
  .muted{color:#9ca3af;font-size:14px}
  article{border:1px solid #2a2540;background:#14121f;border-radius:12px;padding:16px;margin-top:16px}
  h2{font-size:16px;margin:0 0 6px;overflow-wrap:anywhere}
  .meta{font-size:13px;color:#9ca3af;overflow-wrap:anywhere}
  ul{margin:10px 0 0;padding-left:18px}
  li{margin:4px 0}
  a{color:#d8b4fe;overflow-wrap:anywhere}
  pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#0b0b12;border:1px solid #2a2540;border-radius:8px;padding:12px;font-size:13px;margin-top:12px}
`;

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(PRODUCT_NAME)}</title>
<style>${STYLE}</style>
</head>
<body><main>${content}</main></body>
</html>`;
}

function links(m: MailRow): string {
  const found = linksIn(m.text_body ?? '');
  if (!found.length) return '';
  return `<ul aria-label="Links">${found.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join('')}</ul>`;
}

function meta(m: MailRow): string {
  const when = new Date(m.created_at).toISOString().replace('T', ' ').slice(0, 19);
  return `<div class="meta">To ${escapeHtml(m.to_address)} · ${when} UTC · ${escapeHtml(m.status)}</div>`;
}

const heading = `<h1>${escapeHtml(PRODUCT_NAME)} outbox <span class="badge">DEV OUTBOX</span></h1>
<p class="muted">Mails the app would have sent. No SMTP server is set (SMTP_URL), so they are kept here instead.</p>`;

export function renderOutbox(mails: MailRow[]): string {
  const items = mails.length
    ? mails
        .map(
          (m) => `<article>
<h2><a href="/dev/outbox/${encodeURIComponent(m.id)}">${escapeHtml(m.subject)}</a></h2>
${meta(m)}
${links(m)}
</article>`,
        )
        .join('\n')
    : '<p class="muted" style="margin-top:24px">No mail yet.</p>';
  return page('Outbox', `${heading}\n${items}`);
}

export function renderOutboxMail(m: MailRow): string {
  return page(
    m.subject,
    `<p><a href="/dev/outbox">← All mail</a></p>
<article>
<h2>${escapeHtml(m.subject)}</h2>
${meta(m)}
${links(m)}
<pre>${escapeHtml(m.text_body ?? '')}</pre>
<p class="meta"><a href="/dev/outbox/${encodeURIComponent(m.id)}/html">View the HTML version</a></p>
</article>`,
  );
}
