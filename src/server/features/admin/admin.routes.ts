import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAdmin } from '../../http/auth-context.js';
import type { AppContext } from '../../app-context.js';
import { adminUserSchema, grantResultSchema, roleResultSchema } from '../../../shared/admin-users.schema.js';
import { auditEntrySchema, platformSummarySchema, pricingUpdateResultSchema } from '../../../shared/admin.schema.js';
import { pageSchema } from '../../../shared/page.schema.js';
import { auditQuery, grantBody, pricingUpdateBody, roleBody, userParams, usersQuery } from './admin.schema.js';

export const adminRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, admin } = ctx.services;
  // The guard (config.auth) runs in onRequest, before the body is read or validated:
  // anonymous 401 and non-admin 403 whatever they send.
  const adminOnly = { config: { auth: 'admin' as const } };

  // requirements §7 admin-update-pricing; values are validated by the service with precise messages.
  r.post(
    '/functions/v1/admin-update-pricing',
    { ...adminOnly, schema: { body: pricingUpdateBody, tags: ['admin'], response: { 200: pricingUpdateResultSchema } } },
    async (req) => admin.updatePricing(await requireAdmin(req, auth), req.body),
  );

  r.get('/api/admin/summary', { ...adminOnly, schema: { tags: ['admin'], response: { 200: platformSummarySchema } } }, async (req) =>
    admin.summary(await requireAdmin(req, auth)),
  );

  r.get('/api/admin/audit', { ...adminOnly, schema: { querystring: auditQuery, tags: ['admin'], response: { 200: pageSchema(auditEntrySchema) } } }, async (req) =>
    admin.listAudit(await requireAdmin(req, auth), req.query.limit, req.query.cursor),
  );

  r.get('/api/admin/users', { ...adminOnly, schema: { querystring: usersQuery, tags: ['admin'], response: { 200: pageSchema(adminUserSchema) } } }, async (req) =>
    admin.searchUsers(await requireAdmin(req, auth), req.query.query, req.query.limit, req.query.cursor),
  );

  r.post(
    '/api/admin/users/:id/grant',
    { ...adminOnly, schema: { params: userParams, body: grantBody, tags: ['admin'], response: { 200: grantResultSchema } } },
    async (req) => admin.grantEnergy(await requireAdmin(req, auth), req.params.id, req.body.amount, req.body.reason),
  );

  r.post(
    '/api/admin/users/:id/role',
    { ...adminOnly, schema: { params: userParams, body: roleBody, tags: ['admin'], response: { 200: roleResultSchema } } },
    async (req) => admin.setRole(await requireAdmin(req, auth), req.params.id, req.body.role),
  );
};
