import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.js';
import { limitMessages } from '../../../shared/limits.messages.js';

/**
 * Readings are cheap (no model runs, nothing is charged) but are asked for as the user types;
 * a generous per-user cap keeps a script from turning the route into a CPU sink.
 */
export const INTERPRETATIONS_PER_MINUTE = 120;

/**
 * POST /api/tools/<endpoint>/interpret for each tool that declares an interpretation: how the
 * provider assigned to the tool reads a request (the editor: 'brightness +20%, vignette, crop 16:9',
 * or why it will refuse it), the same reading the run itself makes before any charge.
 */
export const interpretRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const rateLimit = { name: 'interpretations', limit: INTERPRETATIONS_PER_MINUTE, windowSeconds: 60, message: limitMessages.interpretations(INTERPRETATIONS_PER_MINUTE) };
  for (const tool of ctx.services.registry.list) {
    const interpretation = tool.interpretation;
    if (!interpretation) continue;
    r.post(
      `/api/tools/${tool.endpoint}/interpret`,
      {
        config: { auth: 'user', rateLimit },
        schema: {
          tags: ['tools'],
          summary: `How ${tool.info.title} reads a request`,
          description: 'Free: nothing runs and nothing is charged. The run itself reads the request the same way before charging.',
          body: interpretation.input,
          response: { 200: interpretation.answer },
        },
      },
      async (req) => interpretation.run(ctx.services.ai.providerFor(tool.endpoint), req.body),
    );
  }
};
