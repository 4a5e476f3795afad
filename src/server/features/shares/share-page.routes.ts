import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { renderGonePage, renderSharePage, sharePageCsp } from './share.page.js';
import type { SharePart } from './shares.service.js';

const PARTS = new Set<SharePart>(['media', 'before', 'preview']);

/**
 * The public side of share links: the page and its files, for anyone with
 * the link, no account. Anything but a live link is the same 404, whether it
 * never existed, expired or was revoked.
 */
export const sharePageRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { shares } = ctx.services;
    const publicUrl = ctx.config.publicUrl;
    const storageOrigin = ctx.config.S3_ENDPOINT && ctx.config.S3_LINKS === 'bucket' ? new URL(ctx.config.S3_ENDPOINT).origin : null;
    const csp = sharePageCsp(storageOrigin);
    // Views are counted in memory and written in batches; the last ones when the server closes (before the database does).
    const stopViewFlush = shares.startViewFlush();
    app.addHook('onClose', async () => stopViewFlush());

    const page = (reply: FastifyReply, status: number, html: string, indexable: boolean) =>
      reply
        .status(status)
        .header('content-type', 'text/html; charset=utf-8')
        // Revocation is at once: every view asks again (a conditional request costs the same as the page).
        .header('cache-control', 'no-cache')
        .header('content-security-policy', csp)
        .header('x-robots-tag', indexable ? 'all' : 'noindex, nofollow')
        .send(html);

    app.get<{ Params: { token: string } }>('/s/:token', { config: { auth: 'public' }, schema: { hide: true } }, async (req, reply) => {
      const row = await shares.open(req.params.token, req.ip, true);
      if (!row) return page(reply, 404, renderGonePage(publicUrl), false);
      return page(reply, 200, renderSharePage(row, { publicUrl, token: req.params.token }), row.indexable);
    });

    app.get<{ Params: { token: string; part: string } }>('/s/:token/:part', { config: { auth: 'public' }, schema: { hide: true } }, async (req, reply) => {
      const part = req.params.part as SharePart;
      const row = PARTS.has(part) ? await shares.open(req.params.token, req.ip, false) : null;
      const url = row ? await shares.fileUrl(row, part) : null;
      reply.header('x-robots-tag', row?.indexable ? 'all' : 'noindex, nofollow');
      if (!url) return reply.status(404).header('cache-control', 'no-store').send({ error: 'Not found', code: 'not_found' });
      // Cached briefly: a page's images are fetched once, and the storage link behind it outlives this.
      return reply.header('cache-control', 'private, max-age=60').redirect(url, 302);
    });
  };
