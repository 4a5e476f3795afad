import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authResponse, okResponse, signInBody, signUpBody } from '../../../shared/auth.schema.js';
import { clearSessionCookie, sessionToken, setSessionCookie } from '../../http/auth-context.js';
import type { AppContext } from '../../app-context.js';

export const authRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const secureCookie = ctx.config.isProduction;
  const meta = (req: { ip: string; headers: Record<string, unknown> }) => ({
    ip: req.ip,
    userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined,
  });

  r.post('/api/auth/sign-up/email', { config: { auth: 'public' }, schema: { body: signUpBody, response: { 200: authResponse }, tags: ['auth'], summary: 'Create an account and sign in' } }, async (req, reply) => {
    const result = await ctx.services.auth.signUp(req.body, meta(req));
    setSessionCookie(reply, result.token, secureCookie);
    // Sign-up still lands on the dashboard; the link only unlocks buying and tools.
    if (ctx.services.account.verificationRequired) {
      await ctx.services.account.sendVerification(result.user.id).catch((err) => req.log.warn({ err }, 'confirmation mail not queued'));
    }
    return result;
  });

  r.post('/api/auth/sign-in/email', { config: { auth: 'public' }, schema: { body: signInBody, response: { 200: authResponse }, tags: ['auth'], summary: 'Sign in with e-mail and password' } }, async (req, reply) => {
    const result = await ctx.services.auth.signIn(req.body, meta(req));
    setSessionCookie(reply, result.token, secureCookie);
    return result;
  });

  r.post('/api/auth/sign-out', { config: { auth: 'public' }, schema: { response: { 200: okResponse }, tags: ['auth'], summary: 'Sign out this session' } }, async (req, reply) => {
    const token = sessionToken(req);
    if (token) await ctx.services.auth.signOut(token);
    clearSessionCookie(reply);
    return { ok: true as const };
  });
};
