import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAdmin } from '../../http/auth-context.js';
import type { AppContext } from '../../app-context.js';
import { referralSettingsSchema, welcomeGrantSchema } from '../../../shared/settings.schema.js';

export const settingsRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, settings } = ctx.services;

  r.get('/api/settings/referral', { config: { auth: 'public' }, schema: { tags: ['settings'], summary: 'Whether sign-up needs an invite code', response: { 200: referralSettingsSchema } } }, async () =>
    settings.getReferralSettings(),
  );

  r.put(
    '/api/settings/referral',
    { config: { auth: 'admin' }, schema: { body: referralSettingsSchema, tags: ['settings', 'admin'], summary: 'Turn invite-only sign-up on or off', response: { 200: referralSettingsSchema } } },
    async (req) => {
      const admin = await requireAdmin(req, auth);
      return settings.setReferralOnly(admin, req.body.is_referral_only);
    },
  );

  r.get(
    '/api/admin/welcome-grant',
    { config: { auth: 'admin' }, schema: { tags: ['settings', 'admin'], summary: 'The ENERGY every new account gets once', response: { 200: welcomeGrantSchema } } },
    async (req) => settings.getWelcomeGrant(await requireAdmin(req, auth)),
  );

  r.put(
    '/api/admin/welcome-grant',
    { config: { auth: 'admin' }, schema: { body: welcomeGrantSchema, tags: ['settings', 'admin'], summary: 'Set the welcome grant for new accounts (0: none)', response: { 200: welcomeGrantSchema } } },
    async (req) => settings.setWelcomeGrant(await requireAdmin(req, auth), req.body.welcome_energy),
  );
};
