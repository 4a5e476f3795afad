import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../http/auth-context.js';
import type { AppContext } from '../../app-context.js';
import { TRANSACTIONS_SHOWN } from '../../../shared/constants.js';
import { cursorParam } from '../../core/cursor.js';
import { energyTransactionSchema } from '../../../shared/energy.schema.js';
import { pageSchema } from '../../../shared/page.schema.js';

const query = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(TRANSACTIONS_SHOWN),
  cursor: cursorParam,
});

export const energyRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/transactions', { config: { auth: 'user' }, schema: { querystring: query, tags: ['energy'], summary: 'Your ENERGY ledger, newest first', response: { 200: pageSchema(energyTransactionSchema) } } }, async (req) => {
    const user = await requireUser(req, ctx.services.auth);
    return ctx.services.energy.listTransactions(user.id, req.query.limit, req.query.cursor);
  });
};
