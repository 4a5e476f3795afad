import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin } from '../../http/auth-context.js';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../../shared/api-error.js';
import { adminPurchaseDetailSchema, adminPurchaseSchema, refundBody, refundResultSchema } from '../../../shared/purchases.schema.js';
import { pageSchema } from '../../../shared/page.schema.js';
import { cursorParam } from '../../core/cursor.js';
import { AdminPurchasesService } from './admin-purchases.service.js';

const purchaseParams = z.object({ id: z.string().max(255) });
const listQuery = z.object({
  query: z.string().trim().max(200).default('').describe("Part of the buyer's e-mail, or a checkout or payment id"),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: cursorParam,
});

/** Admin > Purchases: find one, see its ledger entries, refund it (decision 028). */
export const adminPurchasesRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, payments, purchases: list } = ctx.services;
  const purchases = new AdminPurchasesService(ctx.db, payments);
  const adminOnly = { config: { auth: 'admin' as const } };

  r.get(
    '/api/admin/purchases',
    { ...adminOnly, schema: { querystring: listQuery, tags: ['admin'], summary: 'Find purchases, newest first', response: { 200: pageSchema(adminPurchaseSchema) } } },
    async (req) => {
      await requireAdmin(req, auth);
      return list.search(req.query.query, req.query.limit, req.query.cursor);
    },
  );

  r.get(
    '/api/admin/purchases/:id',
    { ...adminOnly, schema: { params: purchaseParams, tags: ['admin'], summary: 'One purchase with its ledger entries and disputes', response: { 200: adminPurchaseDetailSchema } } },
    async (req) => {
      await requireAdmin(req, auth);
      return list.detail(req.params.id);
    },
  );

  r.post(
    '/api/admin/purchases/:id/refund',
    {
      ...adminOnly,
      schema: {
        params: purchaseParams,
        body: refundBody,
        tags: ['admin'],
        summary: 'Refund a purchase, whole or in part',
        description: 'At Stripe when it sells, else through the built-in test checkout; the ENERGY the refunded share granted is taken back (decision 028).',
        response: {
          200: refundResultSchema,
          409: apiError.describe('Not paid, refunded in full already, or bought through a checkout this install no longer uses (code `conflict`)'),
          503: apiError.describe('The processor did not take the refund; nothing changed (code `unavailable`)'),
        },
      },
    },
    async (req) => purchases.refund(await requireAdmin(req, auth), req.params.id, req.body.amount_cents, req.body.reason),
  );
};
