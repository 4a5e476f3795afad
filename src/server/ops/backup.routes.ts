import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../app-context.js';
import { AppError } from '../core/errors.js';
import { writeBackup } from './backup-archive.js';
import { BACKUP_TOKEN_HEADER, BackupTokens } from './remote-backup.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The names this app answers to: its public origin and its own listener.
 * A page on another site that rebinds its name to 127.0.0.1 still sends its
 * own name as Host, so it never gets past this.
 */
function isOwnHost(ctx: AppContext, host: string | undefined, listenerPort: number | undefined): boolean {
  const port = listenerPort ?? ctx.config.PORT;
  const listener = ctx.config.HOST.includes(':') ? `[${ctx.config.HOST}]` : ctx.config.HOST;
  const own = [new URL(ctx.config.publicUrl).host, `${listener}:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `localhost:${port}`];
  return own.includes((host ?? '').toLowerCase());
}

/**
 * POST /api/ops/backup: the running embedded app streams a backup to the
 * CLI on the same machine. Only over loopback (the socket's own address, not
 * a forwarded one), only to a Host that names this app, and only with a
 * single-use token made from APP_SECRET.
 */
export const backupRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const tokens = new BackupTokens(ctx.config.APP_SECRET);
  app.post('/api/ops/backup', { config: { auth: 'public' }, schema: { hide: true } }, async (req, reply) => {
    const ok = LOOPBACK.has(req.socket.remoteAddress ?? '') && isOwnHost(ctx, req.headers.host, req.socket.localPort);
    if (!ok || !tokens.spend(req.headers[BACKUP_TOKEN_HEADER])) {
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
