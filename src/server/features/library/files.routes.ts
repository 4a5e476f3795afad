import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import {
  contentDisposition,
  isInlineSafe,
  RangeNotSatisfiableError,
  StorageNotFoundError,
  type ByteRange,
} from '../../providers/storage/storage.js';
import { libraryMessages as msg } from './library.messages.js';

/**
 * GET /api/files/<key>?exp&sig[&dn]: files on local disk, served only
 * through short-lived signed links (reliability U4). No session needed (an
 * <img> or <video> cannot send one): the signature is the permission, and
 * it binds key, expiry and download name. Supports Range so videos seek.
 * Also serves a private bucket's files (S3_LINKS=app); with bucket links
 * (S3 by default) browsers go to the bucket and this route is absent.
 */
export const filesRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const storage = ctx.services.library.storage;
    const verify = storage.verify?.bind(storage);
    if (!verify) return;

    const serve = async (req: FastifyRequest, reply: FastifyReply) => {
      const key = (req.params as { '*': string })['*'];
      const query = req.query as Record<string, unknown>;
      const verdict = verify(key, query);
      if (!verdict.ok) return reply.status(403).send({ error: msg.linkInvalid, code: 'forbidden' });

      const info = await storage.head(key);
      if (!info) return reply.status(404).send({ error: 'Not found', code: 'not_found' });

      const range = parseRange(req.headers.range, info.size);
      if (range === 'unsatisfiable') {
        return reply.status(416).header('content-range', `bytes */${info.size}`).send();
      }
      let got;
      try {
        got = await storage.get(key, range ?? undefined);
      } catch (err) {
        if (err instanceof StorageNotFoundError) return reply.status(404).send({ error: 'Not found', code: 'not_found' });
        if (err instanceof RangeNotSatisfiableError) return reply.status(416).header('content-range', `bytes */${err.size}`).send();
        throw err;
      }
      const secondsLeft = Math.max(0, Number(query.exp) - Math.floor(Date.now() / 1000));
      const disposition = verdict.downloadName
        ? contentDisposition('attachment', verdict.downloadName)
        : isInlineSafe(got.contentType)
          ? 'inline'
          : 'attachment';
      reply
        .header('content-type', got.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', disposition)
        .header('cache-control', `private, max-age=${Math.min(secondsLeft, 3600)}`)
        .header('accept-ranges', 'bytes')
        // Whatever a file holds, it can never act as a page of this origin.
        .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox");
      if (got.range) {
        reply
          .status(206)
          .header('content-range', `bytes ${got.range.start}-${got.range.end}/${got.size}`)
          .header('content-length', got.range.end - got.range.start + 1);
      } else {
        reply.header('content-length', got.size);
      }
      if (req.method === 'HEAD') {
        got.stream.destroy();
        return reply.send();
      }
      return reply.send(got.stream);
    };

    // Public: the signed link itself is the permission.
    app.route({ method: ['GET', 'HEAD'], url: '/api/files/*', config: { auth: 'public' }, schema: { hide: true }, handler: serve });
  };

/** One `bytes=` range (the only kind media players send); anything else is served whole. */
function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (!m[1] && !m[2])) return null;
  if (!m[1]) {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
