import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin } from '../../http/auth-context.js';
import type { AppContext } from '../../app-context.js';
import { cursorParam } from '../../core/cursor.js';
import { apiError } from '../../../shared/api-error.js';
import { pageSchema } from '../../../shared/page.schema.js';
import { ADMIN_JOB_STATUSES, CHART_DAYS, RUN_ERROR_CODES, adminChartsSchema, adminJobActionSchema, adminJobSchema, failureRatesSchema } from '../../../shared/admin-jobs.schema.js';
import { AdminJobsService } from './admin-jobs.service.js';
import { runLimit } from '../limits/route-limits.js';

const jobsQuery = z.object({
  tool: z.string().max(100).optional(),
  status: z.enum(ADMIN_JOB_STATUSES).optional(),
  error_code: z.enum(RUN_ERROR_CODES).optional(),
  /** Part of the owner's e-mail, or their id. */
  user: z.string().max(200).optional(),
  /** Runs created at or after / before these times. */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: cursorParam,
});
const jobParams = z.object({ id: z.string().max(100) });

export const adminJobsRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth } = ctx.services;
  const jobs = new AdminJobsService(ctx.db, ctx.services.tools);
  const adminOnly = { config: { auth: 'admin' as const } };

  r.get(
    '/api/admin/jobs',
    { ...adminOnly, schema: { querystring: jobsQuery, tags: ['admin'], summary: "Every user's runs, newest first, by tool, status, error, user and time", response: { 200: pageSchema(adminJobSchema) } } },
    async (req) => {
      const { tool, status, error_code, user, from, to, limit, cursor } = req.query;
      const filters = { tool, status, errorCode: error_code, user, from: from ? new Date(from) : undefined, to: to ? new Date(to) : undefined };
      return jobs.list(await requireAdmin(req, auth), filters, limit, cursor);
    },
  );

  r.get(
    '/api/admin/jobs/failure-rates',
    { ...adminOnly, schema: { tags: ['admin'], summary: 'Runs ended and failed per tool in the last hour and day', response: { 200: failureRatesSchema } } },
    async (req) => jobs.failureRates(await requireAdmin(req, auth)),
  );

  r.get(
    '/api/admin/charts',
    {
      ...adminOnly,
      schema: {
        querystring: z.object({ days: z.coerce.number().int().min(CHART_DAYS.min).max(CHART_DAYS.max).default(CHART_DAYS.default) }),
        tags: ['admin'],
        summary: 'ENERGY sold and spent, and runs and failures per tool, per UTC day',
        response: { 200: adminChartsSchema },
      },
    },
    async (req) => jobs.charts(await requireAdmin(req, auth), req.query.days),
  );

  r.post(
    '/api/admin/jobs/:id/retry',
    {
      // Starts a paid run: counted against the admin's run limit like any other start.
      config: { auth: 'admin' as const, rateLimit: runLimit(ctx.config.TOOL_RUNS_PER_MINUTE) },
      schema: {
        params: jobParams,
        tags: ['admin'],
        summary: "Run a failed or cancelled job again for its owner (charged like the owner's own retry); audited",
        response: { 200: adminJobActionSchema, 402: apiError, 409: apiError },
      },
    },
    async (req) => jobs.retry(await requireAdmin(req, auth), req.params.id),
  );

  r.post(
    '/api/admin/jobs/:id/cancel',
    {
      ...adminOnly,
      schema: { params: jobParams, tags: ['admin'], summary: 'Cancel a queued or running job (refunded); audited', response: { 200: adminJobActionSchema, 409: apiError } },
    },
    async (req) => jobs.cancel(await requireAdmin(req, auth), req.params.id),
  );
};
