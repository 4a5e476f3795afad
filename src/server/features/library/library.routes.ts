import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.js';
import { currentUser } from '../../http/auth-context.js';
import { AppError } from '../../core/errors.js';
import { libraryMessages as msg } from './library.messages.js';
import {
  deletedSchema,
  downloadQuery,
  importUrlBody,
  checkUrlBody,
  checkedUrlSchema,
  itemParams,
  libraryCountsSchema,
  libraryItemSchema,
  libraryListQuery,
  libraryPageSchema,
  libraryVersionsSchema,
  uploadQuery,
} from './library.schema.js';
import { toAppError } from './library-store.js';
import { mbLabel } from './receive.js';
import { runLimit, withSlot } from '../limits/route-limits.js';
import { limitMessages } from '../../../shared/limits.messages.js';
import { redirectAnswer, type DocumentedAnswer } from '../../http/openapi.js';
import { apiError } from '../../../shared/api-error.js';
import { contentDisposition } from '../../providers/storage/storage.js';
import { FORMAT_TYPES } from '../../../shared/output.js';

/** A converted copy: the image in the format asked for. */
const convertedAnswer: DocumentedAnswer = {
  description: 'The converted copy, as an attachment named after the item',
  headers: { 'Content-Disposition': { type: 'string', description: 'attachment, with the file name' } },
  content: Object.fromEntries(
    Object.values(FORMAT_TYPES).map((t) => [t, { schema: { type: 'string', contentMediaType: t, contentEncoding: 'binary' } }]),
  ),
};

// Room for the multipart envelope (boundaries, part headers) around the file.
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * Library API: routes stay thin (authenticate, parse, one service call).
 * Every call is owner-scoped in the service; another user's id is a 404.
 */
export const libraryRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { library, auth, limiter } = ctx.services;
    const limits = library.limits;
    const cfg = ctx.config;
    const HOUR = 3600;

    // Streaming multipart, scoped to this plugin. The file size cap here is a
    // backstop one byte past the largest kind; the per-kind limit is enforced
    // by the service as bytes arrive, once the bytes have said what they are.
    await app.register(multipart, {
      limits: {
        fileSize: Math.max(limits.imageMaxBytes, limits.videoMaxBytes) + 1,
        files: 1,
        fields: 10,
        fieldSize: 4096,
        parts: 20,
        headerPairs: 100,
      },
      throwFileSizeLimit: false,
    });

    // Every library route is for signed-in users; requirements §5 names the words for
    // anonymous callers. The app's guard checks it before any body is read.
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, auth: 'user', authMessage: msg.notAuthenticated };
    });

    const userOf = async (req: FastifyRequest) => (await currentUser(req, auth))!;
    // Imports and checks of a URL are counted per hour apart, and hold one of the user's few outbound fetches.
    const urlsPerHour = (name: string) => ({
      name,
      limit: cfg.URL_IMPORTS_PER_HOUR,
      windowSeconds: HOUR,
      message: limitMessages.urlImports(cfg.URL_IMPORTS_PER_HOUR),
    });
    // Slots, not a count: each fetch holds an outbound connection for up to its timeout.
    const urlFetchSlot = (userId: string) => ({
      key: `url-fetch:user:${userId}`,
      max: cfg.URL_FETCHES_AT_ONCE,
      ttlSeconds: 120,
      message: limitMessages.fetchesAtOnce(cfg.URL_FETCHES_AT_ONCE),
    });
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/api/library/uploads',
      {
        config: { rateLimit: { name: 'uploads', limit: cfg.UPLOADS_PER_HOUR, windowSeconds: HOUR, message: limitMessages.uploads(cfg.UPLOADS_PER_HOUR) } },
        schema: {
          tags: ['library'],
          summary: 'Upload an image (<= 10 MB) or video (<= 100 MB) as multipart field `file`',
          consumes: ['multipart/form-data'],
          querystring: uploadQuery,
          response: { 201: libraryItemSchema },
        },
      },
      async (req, reply) => {
        const user = await userOf(req);
        const kindHint = req.query.kind;
        const wording = kindHint ?? 'video';
        // A declared length past any limit is refused before reading a byte.
        const declared = Number(req.headers['content-length']);
        const ceiling = (kindHint === 'image' ? limits.imageMaxBytes : Math.max(limits.imageMaxBytes, limits.videoMaxBytes)) + MULTIPART_OVERHEAD;
        if (Number.isFinite(declared) && declared > ceiling) {
          closeAfter(reply);
          const max = wording === 'image' ? limits.imageMaxBytes : limits.videoMaxBytes;
          throw new AppError('payload_too_large', msg.uploadFailed(wording, `File is too large (max ${mbLabel(max)})`));
        }
        // A full library is refused before the bytes are read; the exact check is made when the item is saved.
        await library.quota.assertRoomFor(user.id, Number.isFinite(declared) ? Math.max(0, declared - MULTIPART_OVERHEAD) : 0).catch((err) => {
          closeAfter(reply);
          throw err;
        });
        if (!req.isMultipart()) throw new AppError('validation', msg.uploadFailed(kindHint ?? 'image', msg.noFile));
        try {
          const part = await req.file();
          if (!part) throw new AppError('validation', msg.uploadFailed(kindHint ?? 'image', msg.noFile));
          const item = await library.uploads.upload(user.id, {
            stream: part.file,
            fileName: part.filename,
            declaredType: part.mimetype,
            kindHint,
            truncated: () => part.file.truncated,
          });
          return reply.status(201).send(item);
        } catch (err) {
          // Stop reading a body we refused (a 100 MB upload cut at 10 MB is not drained).
          if (!req.raw.complete) closeAfter(reply);
          if (err instanceof AppError) throw err;
          const e = toAppError(err);
          throw new AppError(e.code, msg.uploadFailed(kindHint ?? 'image', e.message));
        }
      },
    );

    r.post(
      '/api/library/import-url',
      {
        config: { rateLimit: urlsPerHour('url-imports') },
        schema: {
          tags: ['library'],
          summary: 'Fetch an http(s) URL into the library (public addresses only; same checks as uploads)',
          body: importUrlBody,
          response: { 201: libraryItemSchema },
        },
      },
      async (req, reply) => {
        const user = await userOf(req);
        await library.quota.assertRoomFor(user.id, 0);
        const item = await withSlot(limiter, urlFetchSlot(user.id), () => library.uploads.importFromUrl(user.id, req.body.url, req.body.kind));
        return reply.status(201).send(item);
      },
    );

    r.post(
      '/api/library/check-url',
      {
        config: { rateLimit: urlsPerHour('url-checks') },
        schema: {
          tags: ['library'],
          summary: 'Check a URL source as a tool run would (address policy, reachability, type, size) without storing it',
          body: checkUrlBody,
          response: { 200: checkedUrlSchema },
        },
      },
      async (req) => {
        const user = await userOf(req);
        return withSlot(limiter, urlFetchSlot(user.id), () => library.uploads.checkUrl(user.id, req.body.url, req.body.kind));
      },
    );

    r.get(
      '/api/library',
      { schema: { tags: ['library'], summary: 'Newest first, keyset pages', querystring: libraryListQuery, response: { 200: libraryPageSchema } } },
      async (req) => {
        const user = await userOf(req);
        return library.queries.list(user.id, req.query);
      },
    );

    r.get('/api/library/counts', { schema: { tags: ['library'], summary: 'How many images and videos you have', response: { 200: libraryCountsSchema } } }, async (req) => {
      const user = await userOf(req);
      return library.queries.counts(user.id);
    });

    r.get('/api/library/:id', { schema: { tags: ['library'], summary: 'One library item', params: itemParams, response: { 200: libraryItemSchema } } }, async (req) => {
      const user = await userOf(req);
      return library.queries.get(user.id, req.params.id);
    });

    r.get(
      '/api/library/:id/versions',
      {
        schema: {
          tags: ['library'],
          summary: "The versions of an item's picture",
          description:
            'The first item of its chain (an upload, or a result whose source is gone) and every result made from it, oldest first; each names the item it was made from in `source_item_id`.',
          params: itemParams,
          response: { 200: libraryVersionsSchema },
        },
      },
      async (req) => {
        const user = await userOf(req);
        return { items: await library.queries.versions(user.id, req.params.id) };
      },
    );

    r.get(
      '/api/library/:id/download',
      {
        config: {
          answers: {
            200: convertedAnswer,
            302: redirectAnswer('To a short-lived link that downloads the file under its original name'),
          },
          // Converting takes work: a converted copy counts against a per-minute limit (the plain download does not).
          rateLimit: {
            name: 'conversions',
            limit: cfg.CONVERSIONS_PER_MINUTE,
            windowSeconds: 60,
            message: limitMessages.conversions(cfg.CONVERSIONS_PER_MINUTE),
            when: (req: FastifyRequest) => typeof (req.query as { format?: unknown }).format === 'string',
          },
        },
        schema: {
          tags: ['library'],
          summary: 'Download a library file, or a copy converted to another format',
          description: 'Without `format`: a redirect to the stored file. With `format` (images only): a converted copy, streamed as it is made and never stored.',
          params: itemParams,
          querystring: downloadQuery,
          response: { 409: apiError, 415: apiError, 422: apiError },
        },
      },
      async (req, reply) => {
        const user = await userOf(req);
        const { format, quality, background } = req.query;
        if (format) {
          const copy = await library.queries.convertedDownload(user.id, req.params.id, { format, quality, background });
          return reply
            .header('cache-control', 'no-store')
            .header('content-type', copy.contentType)
            .header('content-disposition', contentDisposition('attachment', copy.fileName))
            .send(copy.stream as never); // a stream; the JSON schemas above are for the refusals
        }
        const url = await library.queries.downloadUrl(user.id, req.params.id);
        return reply.header('cache-control', 'no-store').redirect(url, 302);
      },
    );

    r.delete('/api/library/:id', { schema: { tags: ['library'], summary: 'Delete a library item and its file', params: itemParams, response: { 200: deletedSchema } } }, async (req) => {
      const user = await userOf(req);
      // Its share links end first (as result or as source of a pair), copies and all.
      await ctx.services.shares.endLinksOf(user.id, req.params.id);
      const { pendingJobId } = await library.queries.delete(user.id, req.params.id);
      // A video still generating stops its run (refunded), so it does not come back when the run ends.
      if (pendingJobId) await ctx.services.tools.settle.stopRun(user.id, pendingJobId);
      return { id: req.params.id, deleted: true as const };
    });

    r.post(
      '/api/library/:id/retry',
      { config: { verifiedEmail: true, rateLimit: runLimit(ctx.config.TOOL_RUNS_PER_MINUTE) }, schema: { tags: ['library'], summary: 'Retry a pending or failed generated video', params: itemParams, response: { 200: libraryItemSchema } } },
      async (req) => {
        const user = await userOf(req);
        const item = await library.results.prepareRetry(user.id, req.params.id);
        await ctx.services.tools.submit.retryLibraryItem(user.id, item);
        return library.queries.get(user.id, req.params.id);
      },
    );
  };

function closeAfter(reply: FastifyReply) {
  reply.header('connection', 'close');
}
