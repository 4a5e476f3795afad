import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clearSessionCookie, currentUser, requireUser, sessionToken } from '../../http/auth-context.js';
import { SESSION_COOKIE } from '../../../shared/constants.js';
import type { AppContext } from '../../app-context.js';
import { adminStatusResponse, meResponse, sessionResponse, vipStatusResponse } from '../../../shared/profile.schema.js';

export const profilesRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, profiles } = ctx.services;

  r.get('/api/me', { config: { auth: 'user' }, schema: { response: { 200: meResponse }, tags: ['profile'], summary: 'The signed-in person, with profile and balance' } }, async (req) => {
    const user = await requireUser(req, auth);
    return profiles.getMe(user.id);
  });

  // The web app's first question: who is here, if anyone. A visitor is an answer, not an error, so
  // signed-out pages stay quiet; a cookie whose session has ended is cleared on the way.
  r.get('/api/auth/session', { config: { auth: 'public' }, schema: { response: { 200: sessionResponse }, tags: ['auth'], summary: 'Who is signed in on this browser, or null' } }, async (req, reply) => {
    const user = await currentUser(req, auth);
    if (!user) {
      if (sessionToken(req) && req.cookies?.[SESSION_COOKIE]) clearSessionCookie(reply);
      return { user: null };
    }
    return { user: await profiles.getMe(user.id) };
  });

  // requirements §7: role checks answered by the server.
  r.post('/functions/v1/check-vip-status', { config: { auth: 'user' }, schema: { response: { 200: vipStatusResponse }, tags: ['profile'], summary: 'Whether the caller is a VIP' } }, async (req) => {
    const user = await requireUser(req, auth);
    return { isVip: user.role === 'vip' };
  });

  r.post('/functions/v1/check-admin-status', { config: { auth: 'user' }, schema: { response: { 200: adminStatusResponse }, tags: ['profile'], summary: 'Whether the caller is an admin' } }, async (req) => {
    const user = await requireUser(req, auth);
    return { isAdmin: user.role === 'admin' };
  });
};
