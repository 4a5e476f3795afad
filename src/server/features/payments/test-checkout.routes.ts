import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { currentUser } from '../../http/auth-context.js';
import { AppError } from '../../core/errors.js';
import { renderTestCheckout } from './test-checkout.page.js';

/**
 * The built-in test checkout's pages (only registered when no Stripe key is
 * set and test checkout is enabled). Plain forms; the session cookie
 * (SameSite=Lax) means another site cannot submit them for the user.
 */
export const testCheckoutRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const { payments, auth } = ctx.services;

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // same-origin, not the site-wide no-referrer: under no-referrer the page's own
  // form posts carry `Origin: null`, which the cross-site guard must refuse.
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'same-origin')
      .send(body);

  async function load(req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
    const user = await currentUser(req, auth);
    // A browser session only: an API key never sees or pays a checkout.
    if (!user || user.apiKey) {
      reply.redirect('/');
      return null;
    }
    try {
      return { user, row: await payments.testCheckout(user.id, req.params.id) };
    } catch (err) {
      if (err instanceof AppError) {
        html(reply, 404, '<!doctype html><title>Checkout not found</title><p>This checkout does not exist. <a href="/dashboard">Back to the dashboard</a></p>');
        return null;
      }
      throw err;
    }
  }

  app.get<{ Params: { id: string } }>('/checkout/test/:id', { config: { auth: 'public' }, schema: { hide: true } }, async (req, reply) => {
    const loaded = await load(req, reply);
    if (!loaded) return reply;
    return html(reply, 200, renderTestCheckout(loaded.row, { email: loaded.user.email }));
  });

  app.post<{ Params: { id: string }; Body: Record<string, string> }>(
    '/checkout/test/:id/pay',
    { config: { auth: 'public' }, schema: { hide: true } },
    async (req, reply) => {
      const loaded = await load(req, reply);
      if (!loaded) return reply;
      const result = await payments.payTestCheckout(loaded.user.id, req.params.id, req.body ?? {});
      if ('redirect' in result) return reply.redirect(result.redirect, 303);
      // A declined card keeps what was typed, except the card number (the one to change).
      const body = req.body ?? {};
      const keep = { expiry: body.expiry, cvc: body.cvc, name: body.name };
      return html(reply, 402, renderTestCheckout(loaded.row, { email: loaded.user.email, error: result.error, values: keep }));
    },
  );

  app.post<{ Params: { id: string } }>('/checkout/test/:id/cancel', { config: { auth: 'public' }, schema: { hide: true } }, async (req, reply) => {
    const loaded = await load(req, reply);
    if (!loaded) return reply;
    return reply.redirect(await payments.cancelTestCheckout(loaded.user.id, req.params.id), 303);
  });
};
