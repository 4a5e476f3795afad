import { PRODUCT_NAME } from '../../../shared/constants.js';
import type { PurchaseRow } from './purchases.repo.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

/**
 * Our own receipt for a purchase that has no Stripe receipt (the test
 * checkout, or before Stripe sent one): plain HTML made to print, no script.
 */
export function renderReceipt(row: PurchaseRow): string {
  const date = new Date(row.bought_at).toISOString().slice(0, 10);
  const refunded = row.refunded_cents > 0;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Receipt ${escapeHtml(row.id.slice(-12))} · ${escapeHtml(PRODUCT_NAME)}</title>
<style>
  *{box-sizing:border-box}
  body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f4f7;color:#1a1a23}
  main{max-width:560px;margin:40px auto;background:#fff;border:1px solid #e2e2ea;border-radius:12px;padding:32px}
  h1{font-size:22px;margin:0 0 4px}
  .muted{color:#55556a;font-size:14px}
  table{width:100%;border-collapse:collapse;margin-top:24px;font-size:15px}
  th,td{text-align:left;padding:10px 0;border-bottom:1px solid #ececf3;vertical-align:top}
  th{font-weight:600;color:#3a3a48;width:45%}
  .total td,.total th{font-weight:700;border-bottom:0}
  .note{margin-top:24px;font-size:13px;color:#55556a;line-height:1.5}
  a{color:#5b21b6}
  @media print{body{background:#fff}main{border:0;margin:0}.noprint{display:none}}
</style>
</head>
<body>
<main>
  <h1>${escapeHtml(PRODUCT_NAME)} receipt</h1>
  <p class="muted">Receipt for ${escapeHtml(row.user_email)}</p>
  <table>
    <tr><th scope="row">Date</th><td>${date}</td></tr>
    <tr><th scope="row">Purchase</th><td>${escapeHtml(row.plan_name)} bundle: ${row.energy} ENERGY</td></tr>
    <tr><th scope="row">Reference</th><td>${escapeHtml(row.id)}</td></tr>
    <tr><th scope="row">Paid by</th><td>${row.provider === 'test' ? 'Card (built-in test checkout: no real charge)' : 'Card'}</td></tr>
    ${refunded ? `<tr><th scope="row">Refunded</th><td>${money(row.refunded_cents, row.currency)}</td></tr>` : ''}
    <tr class="total"><th scope="row">Amount paid</th><td>${money(row.amount_cents, row.currency)}</td></tr>
  </table>
  <p class="note">ENERGY is ${escapeHtml(PRODUCT_NAME)}'s in-app credit for its AI tools.</p>
  <p class="note noprint"><a href="/dashboard/account">Back to your account</a></p>
</main>
</body>
</html>`;
}
