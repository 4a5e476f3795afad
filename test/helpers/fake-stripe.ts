import http from 'node:http';
import type { AddressInfo } from 'node:net';

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
  success_url: string;
  cancel_url: string;
  metadata: Record<string, string>;
  line_items_price: string;
}

/**
 * A local stand-in for the two Stripe API calls we make (create and
 * retrieve a Checkout Session), for contract tests: the real stripe SDK is
 * pointed at it with host/port/protocol.
 */
export async function startFakeStripe() {
  const sessions = new Map<string, FakeSession>();
  const requests: { method: string; path: string; body: URLSearchParams; auth: string | undefined }[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = new URLSearchParams(raw);
      requests.push({ method: req.method!, path: req.url!, body, auth: req.headers.authorization });
      const send = (status: number, obj: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${n}` });
        res.end(JSON.stringify(obj));
      };
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        const id = `cs_test_fake_${++n}`;
        const metadata: Record<string, string> = {};
        for (const [k, v] of body) {
          const m = /^metadata\[(.+)\]$/.exec(k);
          if (m) metadata[m[1]] = v;
        }
        const session: FakeSession = {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          mode: body.get('mode') ?? '',
          payment_status: 'unpaid',
          status: 'open',
          client_reference_id: body.get('client_reference_id'),
          payment_intent: null,
          amount_total: 1000,
          success_url: body.get('success_url') ?? '',
          cancel_url: body.get('cancel_url') ?? '',
          metadata,
          line_items_price: body.get('line_items[0][price]') ?? '',
        };
        sessions.set(id, session);
        return send(200, session);
      }
      const m = /^\/v1\/checkout\/sessions\/([^/?]+)/.exec(req.url ?? '');
      if (req.method === 'GET' && m) {
        const s = sessions.get(decodeURIComponent(m[1]));
        if (!s) return send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
        return send(200, s);
      }
      send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${req.url})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    requests,
    /** Completes payment on Stripe's side, as a card payment would. */
    pay(id: string, intent = `pi_fake_${id}`) {
      const s = sessions.get(id)!;
      s.payment_status = 'paid';
      s.status = 'complete';
      s.payment_intent = intent;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
