import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin, requireUser } from '../../http/auth-context.js';
import type { AppContext } from '../../app-context.js';
import { bundleOfferSchema, planEnergySchema } from '../../../shared/bundles.js';
import { toolPricingSchema } from '../../../shared/pricing.schema.js';
import { apiError } from '../../../shared/api-error.js';

const plansQuery = z.object({
  all: z.enum(['0', '1', 'true', 'false']).optional(),
});

export const pricingRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, pricing } = ctx.services;

  // requirements §7: active rows ordered by display name for users, all rows for admins.
  r.get('/api/pricing', { config: { auth: 'user' }, schema: { tags: ['pricing'], summary: 'What each tool costs', response: { 200: z.array(toolPricingSchema) } } }, async (req) => {
    const user = await requireUser(req, auth);
    return pricing.listToolPricing(user);
  });

  // A price list, public like a pricing page; inactive plans only for admins.
  r.get('/api/plans', { config: { auth: 'public' }, schema: { querystring: plansQuery, tags: ['pricing'], summary: 'The ENERGY plans and their prices', response: { 200: z.array(planEnergySchema), 401: apiError, 403: apiError } } }, async (req) => {
    const all = req.query.all === '1' || req.query.all === 'true';
    if (all) await requireAdmin(req, auth);
    return pricing.listPlans(all);
  });

  r.get('/api/bundles', { config: { auth: 'public' }, schema: { tags: ['pricing'], summary: 'The ENERGY bundles on sale', response: { 200: z.array(bundleOfferSchema) } } }, async () =>
    pricing.listBundles((bundle) => ctx.services.payments.priceIdOf(bundle)),
  );
};
