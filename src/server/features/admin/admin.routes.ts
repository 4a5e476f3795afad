import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAdmin } from '../../http/auth-context.js';
import { apiError } from '../../../shared/api-error.js';
import type { AppContext } from '../../app-context.js';
import { adminUserSchema, grantResultSchema, roleResultSchema, suspensionResultSchema } from '../../../shared/admin-users.schema.js';
import { auditEntrySchema, platformSummarySchema, pricingUpdateResultSchema } from '../../../shared/admin.schema.js';
import { pageSchema } from '../../../shared/page.schema.js';
import { auditQuery, grantBody, pricingUpdateBody, roleBody, suspendBody, userParams, usersQuery } from './admin.schema.js';

export const adminRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, admin } = ctx.services;
  // The guard (config.auth) runs in onRequest, before the body is read or validated:
  // anonymous 401 and non-admin 403 whatever they send.
  const adminOnly = { config: { auth: 'admin' as const } };

  // requirements §7 admin-update-pricing; values are validated by the service with precise messages.
  r.post(
    '/functions/v1/admin-update-pricing',
    { ...adminOnly, schema: { body: pricingUpdateBody, tags: ['admin'], summary: 'Change tool prices and plans', response: { 200: pricingUpdateResultSchema } } },
    async (req) => admin.updatePricing(await requireAdmin(req, auth), req.body),
  );

  r.get('/api/admin/summary', { ...adminOnly, schema: { tags: ['admin'], summary: 'Platform totals', response: { 200: platformSummarySchema } } }, async (req) =>
    admin.summary(await requireAdmin(req, auth)),
  );

  r.get('/api/admin/audit', { ...adminOnly, schema: { querystring: auditQuery, tags: ['admin'], summary: 'The admin audit log, newest first', response: { 200: pageSchema(auditEntrySchema) } } }, async (req) =>
    admin.listAudit(await requireAdmin(req, auth), req.query.limit, req.query.cursor),
  );

  r.get('/api/admin/users', { ...adminOnly, schema: { querystring: usersQuery, tags: ['admin'], summary: 'Find users', response: { 200: pageSchema(adminUserSchema) } } }, async (req) =>
    admin.searchUsers(await requireAdmin(req, auth), req.query.query, req.query.limit, req.query.cursor),
  );

  r.post(
    '/api/admin/users/:id/grant',
    { ...adminOnly, schema: { params: userParams, body: grantBody, tags: ['admin'], summary: 'Grant ENERGY to a user', response: { 200: grantResultSchema } } },
    async (req) => admin.grantEnergy(await requireAdmin(req, auth), req.params.id, req.body.amount, req.body.reason),
  );

  r.post(
    '/api/admin/users/:id/role',
    { ...adminOnly, schema: { params: userParams, body: roleBody, tags: ['admin'], summary: 'Change a user\'s role', response: { 200: roleResultSchema } } },
    async (req) => admin.setRole(await requireAdmin(req, auth), req.params.id, req.body.role),
  );

  r.post(
    '/api/admin/users/:id/suspend',
    {
      ...adminOnly,
      schema: {
        params: userParams,
        body: suspendBody,
        tags: ['admin'],
        summary: 'Suspend an account: its sessions and API keys stop, its open runs are cancelled and refunded',
        response: { 200: suspensionResultSchema, 409: apiError.describe('Your own account, or the last admin who can sign in (code `conflict`)') },
      },
    },
    async (req) => admin.suspend(await requireAdmin(req, auth), req.params.id, req.body.reason),
  );

  r.post(
    '/api/admin/users/:id/reinstate',
    { ...adminOnly, schema: { params: userParams, tags: ['admin'], summary: 'Lift a suspension', response: { 200: suspensionResultSchema } } },
    async (req) => admin.reinstate(await requireAdmin(req, auth), req.params.id),
  );
};
