import type { FastifyPluginAsync } from 'fastify';
import { requireUser } from '../../http/auth-context.js';
import type { AppContext } from '../../app-context.js';

export const profilesRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const { auth, profiles } = ctx.services;

  app.get('/api/me', { config: { auth: 'user' }, schema: { tags: ['profile'] } }, async (req) => {
    const user = await requireUser(req, auth);
    return profiles.getMe(user.id);
  });

  // requirements §7: role checks answered by the server.
  app.post('/functions/v1/check-vip-status', { config: { auth: 'user' }, schema: { tags: ['profile'] } }, async (req) => {
    const user = await requireUser(req, auth);
    return { isVip: user.role === 'vip' };
  });

  app.post('/functions/v1/check-admin-status', { config: { auth: 'user' }, schema: { tags: ['profile'] } }, async (req) => {
    const user = await requireUser(req, auth);
    return { isAdmin: user.role === 'admin' };
  });
};
