import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../http/auth-context.js';
import type { AppContext } from '../../app-context.js';
import { apiKeyListSchema, apiKeySchema, createApiKeyBody, createdApiKeySchema } from '../../../shared/api-keys.schema.js';

const idParams = z.object({ id: z.uuid() });

/** Key management is for a signed-in person only: a key can never mint or revoke keys. */
export const apiKeysRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, apiKeys } = ctx.services;

  r.get(
    '/api/keys',
    { config: { auth: 'user' }, schema: { tags: ['api-keys'], summary: 'Your API keys', response: { 200: apiKeyListSchema } } },
    async (req) => {
      const user = await requireUser(req, auth);
      return { items: await apiKeys.list(user.id), next_cursor: null };
    },
  );

  r.post(
    '/api/keys',
    { config: { auth: 'user' }, schema: { tags: ['api-keys'], summary: 'Create an API key', body: createApiKeyBody, response: { 201: createdApiKeySchema } } },
    async (req, reply) => {
      const user = await requireUser(req, auth);
      return reply.status(201).send(await apiKeys.create(user.id, req.body.name));
    },
  );

  r.delete(
    '/api/keys/:id',
    { config: { auth: 'user' }, schema: { tags: ['api-keys'], summary: 'Revoke an API key', params: idParams, response: { 200: apiKeySchema } } },
    async (req) => {
      const user = await requireUser(req, auth);
      return apiKeys.revoke(user.id, req.params.id);
    },
  );
};
