import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BUNDLES } from '../../src/shared/bundles.js';
import { chargeObject } from '../fixtures/stripe-events.js';

export interface FakePrice {
  id: string;
  object: 'price';
  active: boolean;
  currency: string;
  unit_amount: number | null;
  type: 'one_time' | 'recurring';
  lookup_key: string | null;
  product: string;
}

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: string;
  client_reference_id: string | null;
  payment_intent: string | null;
  amount_total: number | null;
  amount_subtotal: number | null;
  currency: string | null;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, string>;
  line_items_price: string;
}

/** The four bundles as an operator would set them up: found by lookup key pixelrush_<bundle>. */
export function bundleCatalogue(): FakePrice[] {
  return BUNDLES.map((b) => price(`price_fake_${b.id}`, b.priceCents, { lookup_key: `pixelrush_${b.id}` }));
}

export function price(id: string, unitAmount: number, extra: Partial<FakePrice> = {}): FakePrice {
  return { id, object: 'price', active: true, currency: 'usd', unit_amount: unitAmount, type: 'one_time', lookup_key: null, product: `prod_${id}`, ...extra };
}

/**
 * A local stand-in for the Stripe API calls we make, for contract tests: the
 * real stripe SDK is pointed at it with host/port/protocol. It keeps a price
 * catalogue as Stripe does: an unknown price id is Stripe's 400
 * `resource_missing`, an inactive one is refused, and a session's
 * amount_total and currency come from its price.
 */
export async function startFakeStripe(opts: { prices?: FakePrice[] } = {}) {
  const prices = new Map((opts.prices ?? bundleCatalogue()).map((p) => [p.id, p]));
  const sessions = new Map<string, FakeSession>();
  /** Charges by payment intent, made when a session is paid; refunds raise amount_refunded. */
  const charges = new Map<string, ReturnType<typeof chargeObject>>();
  const requests: { method: string; path: string; body: URLSearchParams; auth: string | undefined; version: string | undefined }[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = new URLSearchParams(req.method === 'GET' ? url.search : raw);
      const version = req.headers['stripe-version'];
      requests.push({ method: req.method!, path: req.url!, body, auth: req.headers.authorization, version: typeof version === 'string' ? version : undefined });
      const send = (status: number, obj: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${n}` });
        res.end(JSON.stringify(obj));
      };
      // Stripe's error envelope, as its API sends it.
      const fail = (status: number, error: { code?: string; message: string; param?: string }) =>
        send(status, { error: { type: 'invalid_request_error', ...error } });

      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const priceId = body.get('line_items[0][price]') ?? '';
        const quantity = Number(body.get('line_items[0][quantity]') ?? '1');
        const p = prices.get(priceId);
        if (!p) return fail(400, { code: 'resource_missing', param: 'line_items[0][price]', message: `No such price: '${priceId}'` });
        if (!p.active) return fail(400, { param: 'line_items[0][price]', message: `The price specified is inactive. This field only accepts active prices.` });
        if (body.get('mode') === 'payment' && p.type !== 'one_time') {
          return fail(400, { param: 'line_items[0][price]', message: 'You must provide at least one recurring price in `subscription` mode when using prices.' });
        }
        const id = `cs_test_fake_${++n}`;
        const metadata: Record<string, string> = {};
        for (const [k, v] of body) {
          const m = /^metadata\[(.+)\]$/.exec(k);
          if (m) metadata[m[1]] = v;
        }
        const amount = p.unit_amount === null ? null : p.unit_amount * quantity;
        const session: FakeSession = {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          mode: body.get('mode') ?? '',
          payment_status: 'unpaid',
          status: 'open',
          client_reference_id: body.get('client_reference_id'),
          payment_intent: null,
          amount_total: amount,
          amount_subtotal: amount,
          currency: p.currency,
          success_url: body.get('success_url') ?? '',
          cancel_url: body.get('cancel_url') ?? '',
          metadata,
          line_items_price: priceId,
        };
        sessions.set(id, session);
        return send(200, session);
      }
      const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && sessionPath) {
        const id = decodeURIComponent(sessionPath[1]);
        const s = sessions.get(id);
        if (!s) return fail(404, { code: 'resource_missing', param: 'session', message: `No such checkout.session: '${id}'` });
        return send(200, s);
      }
      const pricePath = /^\/v1\/prices\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && pricePath) {
        const id = decodeURIComponent(pricePath[1]);
        const p = prices.get(id);
        if (!p) return fail(404, { code: 'resource_missing', param: 'price', message: `No such price: '${id}'` });
        return send(200, p);
      }
      if (req.method === 'GET' && url.pathname === '/v1/prices') {
        const keys = body.getAll('lookup_keys[]').concat([...body.keys()].filter((k) => /^lookup_keys\[\d+\]$/.test(k)).map((k) => body.get(k)!));
        if (keys.length > 10) return fail(400, { param: 'lookup_keys', message: 'You can specify up to 10 lookup_keys.' });
        const data = [...prices.values()].filter((p) => (keys.length ? p.lookup_key !== null && keys.includes(p.lookup_key) : true));
        return send(200, { object: 'list', url: '/v1/prices', has_more: false, data });
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        const intent = body.get('payment_intent') ?? '';
        const charge = charges.get(intent);
        if (!charge) return fail(400, { code: 'resource_missing', param: 'payment_intent', message: `No such payment_intent: '${intent}'` });
        const amount = Number(body.get('amount') ?? charge.amount - charge.amount_refunded);
        if (amount > charge.amount - charge.amount_refunded) {
          return fail(400, { code: 'amount_too_large', param: 'amount', message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${((charge.amount - charge.amount_refunded) / 100).toFixed(2)})` });
        }
        Object.assign(charge, chargeObject({ id: charge.id, paymentIntent: intent, amount: charge.amount, amountRefunded: charge.amount_refunded + amount }));
        return send(200, { id: `re_fake_${++n}`, object: 'refund', amount, charge: charge.id, currency: charge.currency, payment_intent: intent, status: 'succeeded', reason: null, created: 1764002000, metadata: {} });
      }
      const chargePath = /^\/v1\/charges\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && chargePath) {
        const id = decodeURIComponent(chargePath[1]);
        const c = [...charges.values()].find((x) => x.id === id);
        if (!c) return fail(404, { code: 'resource_missing', param: 'id', message: `No such charge: '${id}'` });
        return send(200, c);
      }
      fail(404, { message: `Unrecognized request URL (${req.method}: ${url.pathname}).` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    prices,
    sessions,
    requests,
    /** Completes payment on Stripe's side, as a card payment would. */
    pay(id: string, intent = `pi_fake_${id}`) {
      const s = sessions.get(id)!;
      s.payment_status = 'paid';
      s.status = 'complete';
      s.payment_intent = intent;
      charges.set(intent, chargeObject({ id: `ch_fake_${id}`, paymentIntent: intent, amount: s.amount_total ?? 0, amountRefunded: 0 }));
    },
    charges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
