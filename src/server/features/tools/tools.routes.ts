import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/auth-context.js';
import { TOOLS, type ToolEndpoint } from '../../../shared/tools.js';
import type { ToolsService } from './tools.service.js';

const jobParams = z.object({ id: z.string().max(64) });
const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

/**
 * The five tool functions (SPEC §7) and the run history. A run call waits
 * for the result; when the caller goes away the run still completes and
 * lands in the library.
 */
export const toolsRoutes = (ctx: AppContext, tools: ToolsService): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth } = ctx.services;

  for (const endpoint of Object.keys(TOOLS) as ToolEndpoint[]) {
    r.post(`/functions/v1/${endpoint}`, { config: { auth: 'user' }, schema: { tags: ['tools'] } }, async (req, reply) => {
      const user = await requireUser(req, auth);
      const key = req.headers['idempotency-key'];
      const job = await tools.submit(user, endpoint, req.body, typeof key === 'string' ? key : undefined);
      // RFC 7240: a client that wants the job id at once follows the run itself (SSE, GET /api/jobs/:id).
      if (/\brespond-async\b/i.test(String(req.headers.prefer ?? ''))) {
        return reply.status(202).send({ job_id: job.id, status: job.status });
      }
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableEnded) gone.abort();
      });
      const ended = await tools.waitForEnd(job.id, TOOLS[endpoint].timeLimitSeconds * 1000 + 5_000, gone.signal);
      const { status, body } = await tools.toResponse(ended);
      return reply.status(status).send(body);
    });
  }

  /** Which provider runs each tool (the UI names Wan v2.2 only when fal runs image-to-video). */
  r.get('/api/tools/info', { config: { auth: 'user' }, schema: { tags: ['tools'] } }, async () => ({
    providers: ctx.config.aiProviders,
  }));

  r.get('/api/jobs', { config: { auth: 'user' }, schema: { querystring: listQuery, tags: ['tools'] } }, async (req) => {
    const user = await requireUser(req, auth);
    return tools.list(user.id, req.query.limit, req.query.cursor);
  });

  r.get('/api/jobs/:id', { config: { auth: 'user' }, schema: { params: jobParams, tags: ['tools'] } }, async (req) => {
    const user = await requireUser(req, auth);
    return tools.get(user.id, req.params.id);
  });

  /** The finished run's response as the tool call would have answered (reattaching after a reload). */
  r.get('/api/jobs/:id/result', { config: { auth: 'user' }, schema: { params: jobParams, tags: ['tools'] } }, async (req, reply) => {
    const user = await requireUser(req, auth);
    const job = await tools.findOwned(user.id, req.params.id);
    const { status, body } = await tools.toResponse(job);
    return reply.status(status).send(body);
  });

  r.post('/api/jobs/:id/cancel', { config: { auth: 'user' }, schema: { params: jobParams, tags: ['tools'] } }, async (req) => {
    const user = await requireUser(req, auth);
    return tools.cancel(user.id, req.params.id);
  });

  r.post('/api/jobs/:id/retry', { config: { auth: 'user' }, schema: { params: jobParams, tags: ['tools'] } }, async (req, reply) => {
    const user = await requireUser(req, auth);
    const job = await tools.retry(user, req.params.id);
    return reply.status(202).send({ job_id: job.id, status: job.status });
  });

};
