import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/auth-context.js';
import { cursorParam } from '../../core/cursor.js';
import { apiError } from '../../../shared/api-error.js';
import { runLimit } from '../limits/route-limits.js';
import { batch, batchEstimate, batchList, batchRequestFor, batchShortfall } from '../../../shared/batch.schema.js';
import { fileAnswer } from '../../http/openapi.js';

const batchParams = z.object({ id: z.string().max(64) });
const batchHeaders = z.looseObject({
  'idempotency-key': z.string().max(200).optional().describe('A repeat with the same key returns the first batch'),
});
const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: cursorParam,
});

/**
 * Batch Processing: one tool over up to 100 library images in one call.
 * Each image is a tool run of its own (GET /api/jobs/:id), charged and
 * refunded on its own.
 */
export const batchesRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, batches, registry } = ctx.services;
  // The tools offered are those of the registry that declare `batch` (a registry without any refuses every batch).
  const batchRequest = batchRequestFor(registry.batchEndpoints);
  // A batch start counts as one run start against the per-minute limit it shares with the tools.
  const perMinute = ctx.config.TOOL_RUNS_PER_MINUTE;
  const rateLimit = runLimit(perMinute, 'idempotency-key');
  // A call without a body is a call with nothing picked: the schema's own message says what is missing.
  const emptyBody = async (req: { body: unknown }) => {
    req.body ??= {};
  };

  r.post(
    '/api/batches/estimate',
    {
      config: { auth: 'user' },
      preValidation: emptyBody,
      schema: {
        tags: ['batches'],
        summary: 'What a batch would cost against your balance, and how long it should take',
        body: batchRequest,
        response: { 200: batchEstimate },
      },
    },
    async (req) => {
      const user = await requireUser(req, auth);
      return batches.estimate(user, req.body);
    },
  );

  r.post(
    '/api/batches',
    {
      config: { auth: 'user', verifiedEmail: true, rateLimit },
      preValidation: emptyBody,
      schema: {
        tags: ['batches'],
        summary: 'Run one tool over up to 100 library images',
        description:
          'Charges every image as its own run, all or nothing: when the balance does not cover them all, answers 402 with `affordable_count` and charges nothing.',
        headers: batchHeaders,
        body: batchRequest,
        response: { 201: batch, 402: batchShortfall, 404: apiError },
      },
    },
    async (req, reply) => {
      const user = await requireUser(req, auth);
      const key = req.headers['idempotency-key'];
      const created = await batches.create(user, req.body, typeof key === 'string' ? key : undefined, user.apiKey?.id);
      return reply.status(201).send(created);
    },
  );

  r.get(
    '/api/batches',
    { config: { auth: 'user' }, schema: { tags: ['batches'], summary: 'Your batches, newest first', querystring: listQuery, response: { 200: batchList } } },
    async (req) => {
      const user = await requireUser(req, auth);
      return batches.list(user.id, req.query.limit, req.query.cursor);
    },
  );

  r.get(
    '/api/batches/:id',
    { config: { auth: 'user' }, schema: { tags: ['batches'], summary: 'One batch with its images', params: batchParams, response: { 200: batch, 404: apiError } } },
    async (req) => {
      const user = await requireUser(req, auth);
      return batches.get(user.id, req.params.id);
    },
  );

  r.post(
    '/api/batches/:id/cancel',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['batches'],
        summary: 'Cancel the images still waiting (refunded); running ones finish',
        params: batchParams,
        response: { 200: batch, 404: apiError, 409: apiError },
      },
    },
    async (req) => {
      const user = await requireUser(req, auth);
      return batches.cancelRemaining(user.id, req.params.id);
    },
  );

  r.post(
    '/api/batches/:id/retry-failed',
    {
      config: { auth: 'user', verifiedEmail: true, rateLimit },
      schema: {
        tags: ['batches'],
        summary: 'Run every failed image again (charged again)',
        params: batchParams,
        response: { 200: batch, 402: batchShortfall, 404: apiError, 409: apiError },
      },
    },
    async (req) => {
      const user = await requireUser(req, auth);
      return batches.retryFailed(user, req.params.id, user.apiKey?.id);
    },
  );

  r.get(
    '/api/batches/:id/download',
    {
      config: { auth: 'user', answers: { 200: fileAnswer('application/zip', 'The ZIP') } },
      schema: {
        tags: ['batches'],
        summary: 'Every finished image of the batch as one ZIP, named after the images they were made from',
        params: batchParams,
      },
    },
    async (req, reply) => {
      const user = await requireUser(req, auth);
      const { stream, fileName } = await batches.download(user.id, req.params.id);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
};
