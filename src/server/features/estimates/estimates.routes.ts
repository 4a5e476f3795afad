import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { toolEstimateQuery, toolEstimateSchema } from '../../../shared/estimate.schema.js';
import { EstimatesService } from './estimates.service.js';

const query = toolEstimateQuery;
const estimate = toolEstimateSchema;

/** How long a run of a tool takes here: measured from recent runs, scaled to the input's size. */
export const estimatesRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const service = new EstimatesService(ctx.db);
  const { registry } = ctx.services;
  // Every registered tool, a sixth one included: checked against the registry, published as a string so
  // that a client (the web's tool registry) names a tool added after it was built without a cast.
  const params = z.object({
    tool: z
      .string()
      .refine((tool) => registry.find(tool) !== undefined, { message: 'Unknown tool' })
      .meta({ description: `A tool's endpoint: ${registry.endpoints.join(', ')}` }),
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/tools/:tool/estimate',
    {
      config: { auth: 'user' },
      schema: { tags: ['tools'], summary: 'How long a run of a tool should take', params, querystring: query, response: { 200: estimate } },
    },
    async (req) => service.estimate(registry.get(req.params.tool), req.query.megapixels),
  );
};
