import type { FastifyPluginAsync } from 'fastify';
import type { ServerResponse } from 'node:http';
import { requireUser } from '../http/auth-context.js';
import { AppError } from '../core/errors.js';
import type { AppContext } from '../app-context.js';
import type { RealtimeEvent, RealtimeSink } from './realtime-hub.js';
import { eventStreamAnswer } from '../http/openapi.js';

/** More than this many open streams per account is refused (each holds a socket). */
export const MAX_STREAMS_PER_USER = 10;
/** A client this far behind is dropped rather than buffered without limit. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export const realtimeMessages = {
  tooManyStreams: 'Too many open live-update connections',
  unavailable: 'Live updates are unavailable right now',
} as const;

export const realtimeRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const { auth, realtime } = ctx.services;

  // Open streams would keep app.close() waiting forever: end them first.
  app.addHook('preClose', async () => {
    await realtime.close();
  });

  /**
   * Server-sent events for the signed-in user: `ready` once subscribed, then
   * `pricing`, `balance` and job events; a comment every 15 s keeps proxies
   * from closing the connection.
   */
  app.get('/api/events', { config: { auth: 'user', answers: { 200: eventStreamAnswer('`ready` once subscribed, then `balance`, `pricing` and `job` events; a comment line every 15 s') } }, schema: { tags: ['realtime'], summary: 'Live updates as server-sent events' } }, async (req, reply) => {
    const user = await requireUser(req, auth);
    if (realtime.streamsOf(user.id) >= MAX_STREAMS_PER_USER) {
      throw new AppError('rate_limited', realtimeMessages.tooManyStreams);
    }
    try {
      await realtime.ready();
    } catch (err) {
      req.log.warn({ err }, 'realtime listen failed');
      throw new AppError('unavailable', realtimeMessages.unavailable);
    }

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string | number | string[]>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const sink = sseSink(res);
    const unsubscribe = realtime.subscribe(user.id, sink);
    res.on('close', unsubscribe);
    res.write('retry: 3000\n\n');
    sink.send({ type: 'ready', data: {} });
  });
};

function sseSink(res: ServerResponse): RealtimeSink {
  const write = (chunk: string) => {
    if (res.writableEnded || res.destroyed) return;
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      res.destroy();
      return;
    }
    res.write(chunk);
  };
  return {
    send(event: RealtimeEvent) {
      const type = String(event.type).replace(/[\r\n]/g, '');
      write(`event: ${type}\ndata: ${JSON.stringify(event.data ?? {})}\n\n`);
    },
    heartbeat() {
      write(': ping\n\n');
    },
    close() {
      // The server is going away: reconnect soon (to another node, or this
      // one restarted), spread out so clients do not all return at once.
      if (!res.writableEnded) res.end(`retry: ${1000 + Math.floor(Math.random() * 4000)}\n\n`);
    },
  };
}
