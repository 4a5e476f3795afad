import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/auth-context.js';
import type { AppContext } from '../../app-context.js';
import { adminStatusResponse, meResponse, vipStatusResponse } from '../../../shared/profile.schema.js';

export const profilesRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, profiles } = ctx.services;

  r.get('/api/me', { config: { auth: 'user' }, schema: { response: { 200: meResponse }, tags: ['profile'] } }, async (req) => {
    const user = await requireUser(req, auth);
    return profiles.getMe(user.id);
  });

  // requirements §7: role checks answered by the server.
  r.post('/functions/v1/check-vip-status', { config: { auth: 'user' }, schema: { response: { 200: vipStatusResponse }, tags: ['profile'] } }, async (req) => {
    const user = await requireUser(req, auth);
    return { isVip: user.role === 'vip' };
  });

  r.post('/functions/v1/check-admin-status', { config: { auth: 'user' }, schema: { response: { 200: adminStatusResponse }, tags: ['profile'] } }, async (req) => {
    const user = await requireUser(req, auth);
    return { isAdmin: user.role === 'admin' };
  });
};
