import { PRODUCT_NAME } from '../../../shared/constants.js';
import type { CheckoutRow } from './payments.repo.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * The built-in test checkout page: plain HTML forms (no script), looking
 * like a hosted card checkout. Only ever shown when no Stripe key is set.
 */
export function renderTestCheckout(
  row: CheckoutRow,
  opts: { error?: string; email: string; values?: { expiry?: unknown; cvc?: unknown; name?: unknown } },
): string {
  const id = encodeURIComponent(row.id);
  const kept = (v: unknown) => (typeof v === 'string' && v ? ` value="${escapeHtml(v.slice(0, 100))}"` : '');
  const closed = row.status !== 'open';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout · ${escapeHtml(PRODUCT_NAME)}</title>
<style>
  *{box-sizing:border-box}
  body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#0b0b12;color:#e7e7ee;min-height:100vh;display:grid;grid-template-columns:1fr;}
  @media(min-width:860px){body{grid-template-columns:1fr 1fr}}
  .summary{padding:48px 8vw;background:linear-gradient(160deg,#1c1633,#0b0b12)}
  .pay{padding:48px 8vw;background:#f7f7fb;color:#1a1a23}
  .brand{font-weight:700;letter-spacing:.02em;color:#c4b5fd;display:flex;align-items:center;gap:8px}
  .badge{font-size:11px;font-weight:700;background:#f59e0b;color:#1a1a23;border-radius:999px;padding:2px 8px;letter-spacing:.04em}
  .amount{font-size:40px;font-weight:700;margin:28px 0 4px}
  .muted{color:#9ca3af}
  .line{display:flex;justify-content:space-between;border-top:1px solid #2a2540;padding:14px 0;margin-top:24px}
  h2{font-size:20px;margin:0 0 20px}
  label{display:block;font-size:13px;font-weight:600;margin:14px 0 6px;color:#3a3a48}
  input{width:100%;padding:12px;border:1px solid #cfd0dc;border-radius:8px;font-size:16px;background:#fff;color:#111}
  input:focus{outline:2px solid #7c3aed;outline-offset:1px;border-color:#7c3aed}
  .row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
  .btn{width:100%;margin-top:22px;padding:14px;border:0;border-radius:8px;font-size:16px;font-weight:700;cursor:pointer;background:#7c3aed;color:#fff}
  .btn:hover{background:#6d28d9}
  .link{background:none;border:0;color:#6b7280;text-decoration:underline;cursor:pointer;font-size:14px;margin-top:14px;padding:0}
  .error{background:#fee2e2;color:#991b1b;border:1px solid #fecaca;border-radius:8px;padding:10px 12px;margin-bottom:8px;font-size:14px}
  .hint{font-size:12px;color:#6b7280;margin-top:16px;line-height:1.5}
  code{background:#ececf3;padding:1px 4px;border-radius:4px}
</style>
</head>
<body>
<section class="summary">
  <div class="brand">⚡ ${escapeHtml(PRODUCT_NAME)} <span class="badge">TEST MODE</span></div>
  <p class="muted" style="margin-top:36px">${escapeHtml(row.plan_name)} bundle</p>
  <div class="amount">${dollars(row.amount_cents)}</div>
  <p class="muted">${row.energy} ENERGY</p>
  <div class="line"><span>${escapeHtml(row.plan_name)} · ${row.energy} ENERGY</span><span>${dollars(row.amount_cents)}</span></div>
  <div class="line"><strong>Total due</strong><strong>${dollars(row.amount_cents)}</strong></div>
</section>
<section class="pay">
  <h2>Pay with card</h2>
  ${opts.error ? `<div class="error" role="alert">${escapeHtml(opts.error)}</div>` : ''}
  ${
    closed
      ? `<p>This checkout is ${escapeHtml(row.status)}.</p><form method="post" action="/checkout/test/${id}/cancel"><button class="btn" type="submit">Return to ${escapeHtml(PRODUCT_NAME)}</button></form>`
      : `<form method="post" action="/checkout/test/${id}/pay" autocomplete="off">
    <label for="email">Email</label>
    <input id="email" name="email" value="${escapeHtml(opts.email)}" readonly>
    <label for="card_number">Card number</label>
    <input id="card_number" name="card_number" inputmode="numeric" placeholder="4242 4242 4242 4242" required maxlength="23">
    <div class="row">
      <div><label for="expiry">Expiry</label><input id="expiry" name="expiry" placeholder="MM / YY" required maxlength="7"${kept(opts.values?.expiry)}></div>
      <div><label for="cvc">CVC</label><input id="cvc" name="cvc" placeholder="123" required maxlength="4" inputmode="numeric"${kept(opts.values?.cvc)}></div>
    </div>
    <label for="name">Name on card</label>
    <input id="name" name="name" placeholder="Full name" maxlength="100"${kept(opts.values?.name)}>
    <button class="btn" type="submit">Pay ${dollars(row.amount_cents)}</button>
  </form>
  <form method="post" action="/checkout/test/${id}/cancel"><button class="link" type="submit">Cancel and return to ${escapeHtml(PRODUCT_NAME)}</button></form>
  <p class="hint">This is the built-in test checkout: no real card is charged. Use <code>4242 4242 4242 4242</code>, any future expiry and any CVC. <code>4000 0000 0000 0002</code> is declined.</p>`
  }
</section>
</body>
</html>`;
}
