import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/auth-context.js';
import { aiProviderOf } from '../../config.js';
import { toolAccepted, toolFailed } from '../../../shared/tool-results.js';
import { apiError } from '../../../shared/api-error.js';
import type { Tools } from './create-tools.js';
import { runLimit } from '../limits/route-limits.js';
import { webhookUrlField } from '../../../shared/webhooks.schema.js';
import { cursorParam } from '../../core/cursor.js';
import { toolJobSchema, toolsInfoSchema } from '../../../shared/tools.js';
import { pageSchema } from '../../../shared/page.schema.js';

/** Every run may name a webhook for its end (the tool's own schema ignores the field). */
const webhookBody = z.object({ webhook_url: webhookUrlField });
const jobParams = z.object({ id: z.string().max(64) });
const toolHeaders = z.looseObject({
  prefer: z.string().max(200).optional().describe("'respond-async': answer 202 with the job id instead of waiting"),
  'idempotency-key': z.string().max(200).optional().describe('A repeat with the same key returns the first run'),
});
const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: cursorParam,
});

/** What a run is refused for before it is charged (the source, its kind and size); 400 covers the parameters. */
const refusedBeforeCharge = {
  404: apiError.describe('The source is not in your library, or is not yours (code `not_found`); nothing is charged'),
  409: apiError.describe('The source is not ready yet, e.g. a video still generating (code `conflict`); nothing is charged'),
  413: apiError.describe('The source is larger than the upload limit, or the library is full (code `payload_too_large`); nothing is charged'),
  415: apiError.describe('The source is the other kind: an image where a video is needed, or the reverse (code `unsupported_media_type`); nothing is charged'),
};

/**
 * The five tool functions (requirements §7) and the run history. A run call waits
 * for the result; when the caller goes away the run still completes and
 * lands in the library.
 */
export const toolsRoutes = (ctx: AppContext, tools: Tools): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth } = ctx.services;

  const perMinute = ctx.config.TOOL_RUNS_PER_MINUTE;
  const rateLimit = runLimit(perMinute, 'idempotency-key');
  for (const tool of tools.registry.list) {
    r.post(
      `/functions/v1/${tool.endpoint}`,
      {
        config: { auth: 'user', rateLimit, verifiedEmail: true },
        // A call without a body is a call with nothing picked: the tool's own message says what is missing.
        preValidation: async (req) => {
          req.body ??= {};
        },
        schema: {
          tags: ['tools'],
          summary: tool.info.title,
          description: `Costs ENERGY (price row '${tool.info.pricing}'). Waits for the result; with \`Prefer: respond-async\` answers 202 with the job id at once.`,
          headers: toolHeaders,
          body: z.intersection(tool.schemas.input, webhookBody),
          response: { 200: tool.schemas.response, 202: toolAccepted, ...refusedBeforeCharge, 402: apiError, 422: z.union([toolFailed, apiError]) },
        },
      },
      async (req, reply) => {
        const user = await requireUser(req, auth);
        const key = req.headers['idempotency-key'];
        const webhookUrl = (req.body as { webhook_url?: string }).webhook_url;
        if (webhookUrl) await ctx.services.webhooks.assertDeliverable(webhookUrl);
        const job = await tools.submit.submit(user, tool.endpoint, req.body, typeof key === 'string' ? key : undefined, {
          webhookUrl,
          apiKeyId: user.apiKey?.id,
        });
        // RFC 7240: a client that wants the job id at once follows the run itself (SSE, GET /api/jobs/:id).
        if (/\brespond-async\b/i.test(String(req.headers.prefer ?? ''))) {
          return reply.status(202).send({ job_id: job.id, status: job.status });
        }
        const gone = new AbortController();
        reply.raw.on('close', () => {
          if (!reply.raw.writableEnded) gone.abort();
        });
        const ended = await tools.events.waitForEnd(job.id, tool.info.timeLimitSeconds * 1000 + 5_000, gone.signal);
        const { status, body } = await tools.runs.toResponse(ended);
        return reply.status(status).send(body);
      },
    );
  }

  /** Which provider runs each tool (the UI names Wan v2.2 only when fal runs image-to-video). */
  r.get('/api/tools/info', { config: { auth: 'user' }, schema: { tags: ['tools'], summary: 'Which provider runs each tool', response: { 200: toolsInfoSchema } } }, async () => ({
    providers: Object.fromEntries(tools.registry.list.map((tool) => [tool.endpoint, aiProviderOf(ctx.config, tool.endpoint)])),
  }));

  r.get('/api/jobs', { config: { auth: 'user' }, schema: { querystring: listQuery, tags: ['tools'], summary: 'Your tool runs, newest first', response: { 200: pageSchema(toolJobSchema) } } }, async (req) => {
    const user = await requireUser(req, auth);
    return tools.runs.list(user.id, req.query.limit, req.query.cursor);
  });

  r.get('/api/jobs/:id', { config: { auth: 'user' }, schema: { params: jobParams, tags: ['tools'], summary: 'One tool run', response: { 200: toolJobSchema } } }, async (req) => {
    const user = await requireUser(req, auth);
    return tools.runs.get(user.id, req.params.id);
  });

  /**
   * A run's result answers what its tool's call answers. The answer is sent as the first
   * union member it fits; members refuse unknown fields, so an answer is never trimmed to
   * another tool's smaller shape.
   */
  const exactly = (schema: z.ZodType) => (schema instanceof z.ZodObject ? schema.strict() : schema);
  const runAnswers = {
    200: z.union(tools.registry.list.map((tool) => exactly(tool.schemas.response))),
    202: toolAccepted,
    422: z.union([toolFailed, apiError]),
  };

  /** The finished run's response as the tool call would have answered (reattaching after a reload). */
  r.get('/api/jobs/:id/result', { config: { auth: 'user' }, schema: { params: jobParams, tags: ['tools'], summary: 'The answer of a tool run', response: runAnswers } }, async (req, reply) => {
    const user = await requireUser(req, auth);
    const job = await tools.runs.findOwned(user.id, req.params.id);
    const { status, body } = await tools.runs.toResponse(job);
    return reply.status(status).send(body);
  });

  r.post('/api/jobs/:id/cancel', { config: { auth: 'user' }, schema: { params: jobParams, tags: ['tools'], summary: 'Cancel a tool run (refunded)', response: { 200: toolJobSchema } } }, async (req) => {
    const user = await requireUser(req, auth);
    return tools.settle.cancel(user.id, req.params.id);
  });

  r.post('/api/jobs/:id/retry', { config: { auth: 'user', verifiedEmail: true, rateLimit: runLimit(perMinute) }, schema: { params: jobParams, tags: ['tools'], summary: 'Run a failed or cancelled run again', response: { 202: toolAccepted } } }, async (req, reply) => {
    const user = await requireUser(req, auth);
    const job = await tools.submit.retry(user, req.params.id);
    return reply.status(202).send({ job_id: job.id, status: job.status });
  });

};
