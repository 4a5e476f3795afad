import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../http/auth-context.js';
import type { AppContext } from '../../app-context.js';
import { webhookDeliveryListSchema, webhookSecretSchema } from '../../../shared/webhooks.schema.js';
import { SIGNATURE_HEADER } from './webhook-signature.js';
import { cursorParam } from '../../core/cursor.js';

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: cursorParam,
});

export const webhooksRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, webhooks } = ctx.services;

  r.get(
    '/api/webhook-deliveries',
    { config: { auth: 'user' }, schema: { tags: ['webhooks'], summary: 'Recent webhook deliveries', querystring: listQuery, response: { 200: webhookDeliveryListSchema } } },
    async (req) => {
      const user = await requireUser(req, auth);
      return webhooks.list(user.id, req.query.limit, req.query.cursor);
    },
  );

  // The signing secret is account material: a session only, never an API key.
  r.get(
    '/api/webhooks/secret',
    { config: { auth: 'user' }, schema: { tags: ['webhooks'], summary: 'Your webhook signing secret', response: { 200: webhookSecretSchema } } },
    async (req) => {
      const user = await requireUser(req, auth);
      return {
        secret: webhooks.signingSecret(user.id),
        header: SIGNATURE_HEADER,
        scheme: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">',
      };
    },
  );
};
