import pg from 'pg';
import { withAfterCommit, type Db, type Queryable } from './db.js';

// BIGINT (sums, counts) as JS numbers: ENERGY amounts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export interface PostgresOptions {
  connectionString: string;
  /** Confine every connection to one schema (isolated test runs). */
  schema?: string;
  max?: number;
}

export async function openPostgres(opts: PostgresOptions): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: opts.connectionString,
    max: opts.max ?? 20,
    ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
  });
  pool.on('error', () => {
    /* idle client errors are surfaced on the next query */
  });
  if (opts.schema) {
    const admin = new pg.Client({ connectionString: opts.connectionString });
    await admin.connect();
    await admin.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
    await admin.end();
  }
  await pool.query('SELECT 1');

  const asQueryable = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const res = await target.query(sql, params);
      return res.rows as T[];
    },
    async exec(sql: string) {
      await target.query(sql);
    },
  });

  let listener: Promise<pg.Client> | undefined;
  let closed = false;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const quote = (channel: string) => `"${channel.replace(/"/g, '')}"`;

  /**
   * One connection holds every LISTEN. If it drops, a new one is made and
   * every channel listened to again, so realtime updates do not silently stop.
   */
  function listenerClient(): Promise<pg.Client> {
    listener ??= (async () => {
      const client = new pg.Client({
        connectionString: opts.connectionString,
        ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
      });
      await client.connect();
      client.on('notification', (msg) => {
        for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
      });
      const lost = () => {
        listener = undefined;
        client.removeAllListeners('end');
        client.removeAllListeners('error');
        client.on('error', () => {});
        if (!closed && handlers.size) setTimeout(() => void reconnect(1), 250);
      };
      client.on('error', lost);
      client.on('end', lost);
      for (const channel of handlers.keys()) await client.query(`LISTEN ${quote(channel)}`);
      return client;
    })();
    listener.catch(() => {
      listener = undefined;
    });
    return listener;
  }

  async function reconnect(attempt: number): Promise<void> {
    if (closed) return;
    try {
      await listenerClient();
    } catch {
      setTimeout(() => void reconnect(attempt + 1), Math.min(30_000, 250 * 2 ** attempt));
    }
  }

  return {
    kind: 'postgres',
    schema: opts.schema,
    queueDatabase: () => ({
      executeSql: async (text: string, values?: unknown[]) => {
        // A multi-statement script answers one result per statement: flatten
        // them, as pg-boss's own driver does, so a RETURNING is never lost.
        const res = (await pool.query(text, values)) as unknown as pg.QueryResult | pg.QueryResult[];
        return { rows: Array.isArray(res) ? res.flatMap((r) => r.rows ?? []) : res.rows };
      },
    }),
    ...asQueryable(pool),
    transaction: (fn) =>
      withAfterCommit(async (wrap) => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const result = await fn(wrap(asQueryable(client)));
          await client.query('COMMIT');
          return result;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw err;
        } finally {
          client.release();
        }
      }),
    async listen(channel, onPayload) {
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        const client = await listenerClient();
        await client.query(`LISTEN ${quote(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set!.delete(onPayload);
      };
    },
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      closed = true;
      const client = await listener?.catch(() => undefined);
      await client?.end().catch(() => {});
      await pool.end();
    },
  };
}
