import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/auth-context.js';
import { createShareBody, shareLinkSchema, shareListQuery, shareListSchema } from '../../../shared/shares.schema.js';

const idParams = z.object({ id: z.uuid() });
/** Each link makes stripped copies of its files: bounded like uploads. */
const SHARES_PER_HOUR = 100;

/** The owner's side of share links: make, list, revoke. */
export const sharesRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const { auth, shares } = ctx.services;

    r.post(
      '/api/shares',
      {
        config: {
          auth: 'user',
          rateLimit: { name: 'shares', limit: SHARES_PER_HOUR, windowSeconds: 3600, message: `At most ${SHARES_PER_HOUR} share links an hour. Please try again later.` },
        },
        schema: {
          tags: ['library'],
          summary: 'Make a public link to a result (or a before/after pair) with an expiry',
          body: createShareBody,
          response: { 201: shareLinkSchema },
        },
      },
      async (req, reply) => {
        const user = await requireUser(req, auth);
        return reply.status(201).send(await shares.create(user.id, req.body));
      },
    );

    r.get(
      '/api/shares',
      { config: { auth: 'user' }, schema: { tags: ['library'], summary: 'Your share links with their views and expiries, newest first', querystring: shareListQuery, response: { 200: shareListSchema } } },
      async (req) => {
        const user = await requireUser(req, auth);
        return shares.list(user.id, req.query);
      },
    );

    r.delete(
      '/api/shares/:id',
      { config: { auth: 'user' }, schema: { tags: ['library'], summary: 'Turn a share link off at once (its page and files answer 404)', params: idParams, response: { 200: shareLinkSchema } } },
      async (req) => {
        const user = await requireUser(req, auth);
        return shares.revoke(user.id, req.params.id);
      },
    );
  };
