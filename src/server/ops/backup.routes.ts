import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../app-context.js';
import { AppError } from '../http/errors.js';
import { writeBackup } from './backup-archive.js';
import { BACKUP_TOKEN_HEADER, verifyBackupToken } from './remote-backup.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * POST /api/ops/backup: the running embedded app streams a backup to the
 * CLI on the same machine. Only over loopback (the socket's own address, not
 * a forwarded one) and only with a token made from APP_SECRET.
 */
export const backupRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  app.post('/api/ops/backup', { config: { auth: 'public' }, schema: { hide: true } }, async (req, reply) => {
    if (!LOOPBACK.has(req.socket.remoteAddress ?? '') || !verifyBackupToken(ctx.config.APP_SECRET, req.headers[BACKUP_TOKEN_HEADER])) {
      throw new AppError('forbidden', 'Forbidden');
    }
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'application/gzip', 'cache-control': 'no-store' });
    try {
      const { summary } = await writeBackup(ctx.db, ctx.services.library.storage, reply.raw);
      req.log.info({ rows: summary.rows, files: summary.files.length }, 'backup streamed');
    } catch (err) {
      req.log.error({ err }, 'backup failed');
      reply.raw.destroy(err as Error);
    }
  });
};
