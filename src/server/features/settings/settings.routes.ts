import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAdmin } from '../../http/auth-context.js';
import type { AppContext } from '../../app-context.js';
import { referralSettingsSchema } from '../../../shared/settings.schema.js';

export const settingsRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, settings } = ctx.services;

  r.get('/api/settings/referral', { config: { auth: 'public' }, schema: { tags: ['settings'], response: { 200: referralSettingsSchema } } }, async () =>
    settings.getReferralSettings(),
  );

  r.put(
    '/api/settings/referral',
    { config: { auth: 'admin' }, schema: { body: referralSettingsSchema, tags: ['settings', 'admin'], response: { 200: referralSettingsSchema } } },
    async (req) => {
      const admin = await requireAdmin(req, auth);
      return settings.setReferralOnly(admin, req.body.is_referral_only);
    },
  );
};
