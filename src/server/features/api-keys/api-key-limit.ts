import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { currentUser } from '../../http/auth-context.js';
import { assertAllowed } from '../limits/limiter.js';

export const apiKeyLimitMessage = 'Too many requests with this API key. Please wait a moment and try again.';

/**
 * Calls made with a personal API key count against that key, in the
 * database, so every app process shares the budget. Runs after the auth
 * guard: only calls it let through are counted.
 */
export function registerApiKeyLimit(app: FastifyInstance, ctx: AppContext): void {
  const limit = ctx.config.API_KEY_CALLS_PER_MINUTE;
  if (limit <= 0) return;
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.auth !== 'user') return;
    const user = await currentUser(req, ctx.services.auth);
    if (!user?.apiKey) return;
    const verdict = await ctx.services.limiter.take([{ key: `api-key:${user.apiKey.id}`, limit, windowSeconds: 60 }]);
    assertAllowed(verdict, apiKeyLimitMessage);
  });
}
