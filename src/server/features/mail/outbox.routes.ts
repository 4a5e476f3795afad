import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { renderOutbox, renderOutboxMail } from './outbox.page.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The dev outbox: every stored mail with its links, on our own origin.
 * Registered only when MAIL_OUTBOX is on (development by default), like the
 * built-in test checkout; open to anyone who can reach the dev server,
 * since whoever forgot a password is not signed in.
 */
export const outboxRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const { mail } = ctx.services;
  const html = (reply: FastifyReply, status: number, body: string, csp?: string) => {
    reply.status(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store');
    if (csp) reply.header('content-security-policy', csp);
    return reply.send(body);
  };
  const notFound = (reply: FastifyReply) => html(reply, 404, '<!doctype html><title>Not found</title><p>No such mail. <a href="/dev/outbox">Outbox</a></p>');

  app.get('/dev/outbox', { config: { auth: 'public' }, schema: { hide: true } }, async (_req, reply) =>
    html(reply, 200, renderOutbox(await mail.listOutbox())),
  );

  app.get<{ Params: { id: string } }>('/dev/outbox/:id', { config: { auth: 'public' }, schema: { hide: true } }, async (req, reply) => {
    const m = UUID.test(req.params.id) ? await mail.findOutboxMail(req.params.id) : undefined;
    return m ? html(reply, 200, renderOutboxMail(m)) : notFound(reply);
  });

  // The mail's own HTML, as a mail client would show it: no script, inline styles only.
  app.get<{ Params: { id: string } }>('/dev/outbox/:id/html', { config: { auth: 'public' }, schema: { hide: true } }, async (req, reply) => {
    const m = UUID.test(req.params.id) ? await mail.findOutboxMail(req.params.id) : undefined;
    if (!m?.html_body) return notFound(reply);
    return html(reply, 200, m.html_body, "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'");
  });
};
