import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/auth-context.js';
import { cursorParam } from '../../core/cursor.js';
import { pageSchema } from '../../../shared/page.schema.js';
import { purchaseSchema } from '../../../shared/purchases.schema.js';
import { renderReceipt } from './receipt.page.js';

const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(10), cursor: cursorParam });

/** Account > Purchases: what the user bought, its status, and a receipt. */
export const purchasesRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, purchases } = ctx.services;

  r.get(
    '/api/purchases',
    { config: { auth: 'user' }, schema: { querystring: listQuery, tags: ['payments'], summary: 'Your purchases, newest first', response: { 200: pageSchema(purchaseSchema) } } },
    async (req) => {
      const user = await requireUser(req, auth);
      return purchases.listOfUser(user.id, req.query.limit, req.query.cursor);
    },
  );

  r.get(
    '/api/purchases/:id/receipt',
    {
      config: {
        auth: 'user',
        answers: { 200: { description: 'A printable receipt (HTML)', content: { 'text/html': { schema: { type: 'string' } } } } },
      },
      schema: { params: z.object({ id: z.string().max(255) }), tags: ['payments'], summary: 'A printable receipt of one of your purchases' },
    },
    async (req, reply) => {
      const user = await requireUser(req, auth);
      const row = await purchases.getOfUser(user.id, req.params.id);
      return reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'private, no-store').send(renderReceipt(row));
    },
  );
};
