import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { onPostgresServer } from './helpers/test-db.js';
import { openPostgres } from '../src/server/db/postgres.js';
import { RealtimeHub, channelFor, type RealtimeEvent, type RealtimeSink } from '../src/server/realtime/realtime-hub.js';

/**
 * GET /api/events (SSE) and the RealtimeHub behind it: Postgres LISTEN/NOTIFY
 * fan-out, per-user targeting, heartbeats, clean shutdown.
 */
let t: TestApp;
let base: string;
let user: TestUser;
let other: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  user = await registerUser(t);
  other = await registerUser(t);
  admin = await registerUser(t, { role: 'admin' });
});
afterAll(async () => {
  await t?.close();
});

const until = async (check: () => boolean, ms = 5000, what = 'condition') => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** A recording sink, as a stream would be. */
function recorder() {
  const events: RealtimeEvent[] = [];
  let beats = 0;
  let closed = false;
  const sink: RealtimeSink = {
    send: (e) => void events.push(e),
    heartbeat: () => void (beats += 1),
    close: () => void (closed = true),
  };
  return { sink, events, beats: () => beats, closed: () => closed };
}

interface SseEvent {
  event: string;
  data: unknown;
}

/** Opens GET /api/events with fetch and parses the stream as it arrives. */
async function openStream(u?: TestUser) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/events`, { headers: u ? u.headers : {}, signal: controller.signal });
  const events: SseEvent[] = [];
  let raw = '';
  let ended = false;
  const done = (async () => {
    if (!res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        raw += decoder.decode(value, { stream: true });
        let idx: number;
        while ((idx = raw.indexOf('\n\n')) >= 0) {
          const block = raw.slice(0, idx);
          raw = raw.slice(idx + 2);
          const lines = block.split('\n');
          const name = lines.find((l) => l.startsWith('event: '))?.slice(7);
          const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
          if (name) events.push({ event: name, data: data ? JSON.parse(data) : null });
        }
      }
    } catch {
      /* aborted */
    } finally {
      ended = true;
    }
  })();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each event's data has its own shape
  const waitFor = async (name: string, match: (data: any) => boolean = () => true) => {
    await until(() => events.some((e) => e.event === name && match(e.data)), 5000, `event '${name}'`);
    return events.find((e) => e.event === name && match(e.data))!;
  };
  return {
    res,
    events,
    waitFor,
    ended: () => ended,
    done,
    close: async () => {
      controller.abort();
      await done;
    },
  };
}

describe('RealtimeHub', () => {
  it('delivers broadcasts to all, user events to that user only, and beats', async () => {
    const hub = new RealtimeHub(t.db, { heartbeatMs: 20 });
    await hub.ready();
    const a = recorder();
    const b = recorder();
    hub.subscribe('user-a', a.sink);
    const unsubscribeB = hub.subscribe('user-b', b.sink);

    await hub.publish('pricing', null, { changed: ['tools'] });
    await hub.publish('job', 'user-a', { stage: 'running', fraction: 0.5 });
    await until(() => a.events.length === 2 && b.events.length === 1, 5000, 'delivery');
    expect(a.events).toEqual([
      { type: 'pricing', user_id: null, data: { changed: ['tools'] } },
      { type: 'job', user_id: 'user-a', data: { stage: 'running', fraction: 0.5 } },
    ]);
    expect(b.events.map((e) => e.type)).toEqual(['pricing']);
    await until(() => a.beats() >= 2 && b.beats() >= 2, 5000, 'heartbeats');

    unsubscribeB();
    await hub.publish('pricing', null, {});
    await until(() => a.events.length === 3);
    expect(b.events).toHaveLength(1);

    await hub.close();
    expect(a.closed()).toBe(true);
    expect(hub.size).toBe(0);
    await hub.publish('pricing', null, {}); // a no-op once closed
    expect(() => hub.subscribe('user-a', recorder().sink)).toThrow();
  });

  it('an event published inside a transaction is sent only if it commits', async () => {
    const hub = new RealtimeHub(t.db);
    await hub.ready();
    const a = recorder();
    hub.subscribe('u', a.sink);
    await expect(
      t.db.transaction(async (tx) => {
        await hub.publish('pricing', null, { n: 1 }, tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await t.db.transaction((tx) => hub.publish('pricing', null, { n: 2 }, tx));
    // Events arrive in commit order: once a later one is in, the rolled-back
    // one had its chance to arrive before it.
    await hub.publish('pricing', null, { n: 3 });
    await until(() => a.events.some((e) => (e.data as { n: number }).n === 3));
    expect(a.events.map((e) => e.data)).toEqual([{ n: 2 }, { n: 3 }]);
    await hub.close();
  });

  it('refuses payloads Postgres would reject', async () => {
    const hub = new RealtimeHub(t.db);
    await expect(hub.publish('job', 'u', { blob: 'x'.repeat(9000) })).rejects.toThrow(/too large/);
    await hub.close();
  });

  it('scopes the channel to the schema (separate data, separate events)', () => {
    expect(channelFor('public')).toBe('pixelrush_events');
    expect(channelFor('t_ABC-1')).toBe('pixelrush_events_t_abc_1');
    expect(channelFor('x'.repeat(100)).length).toBeLessThanOrEqual(63);
  });

  it.runIf(onPostgresServer())('reaches listeners in another process (second connection pool)', async () => {
    const [{ schema }] = await t.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    const second = await openPostgres({ connectionString: process.env.DATABASE_URL!, schema, max: 2 });
    const listenerHub = new RealtimeHub(t.db);
    const publisherHub = new RealtimeHub(second);
    try {
      await listenerHub.ready();
      const a = recorder();
      listenerHub.subscribe(user.id, a.sink);
      await publisherHub.publish('job', user.id, { stage: 'done' });
      await publisherHub.publishBalance(user.id);
      await until(() => a.events.length === 2, 5000, 'cross-process delivery');
      expect(a.events.map((e) => e.type)).toEqual(['job', 'balance']);
    } finally {
      await listenerHub.close();
      await publisherHub.close();
      await second.close();
    }
  });
});

describe('GET /api/events', () => {
  it('requires sign-in', async () => {
    const res = await fetch(`${base}/api/events`);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('No authentication token found');
  });

  it('streams with SSE headers; pricing after an admin save; balance to its owner only', async () => {
    const a = await openStream(user);
    const b = await openStream(other);
    try {
      expect(a.res.status).toBe(200);
      expect(a.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(a.res.headers.get('cache-control')).toMatch(/no-cache/);
      expect(a.res.headers.get('x-accel-buffering')).toBe('no');
      await a.waitFor('ready');
      await b.waitFor('ready');

      const save = await fetch(`${base}/functions/v1/admin-update-pricing`, {
        method: 'POST',
        headers: { ...admin.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ pricing_updates: { 'fal-upscaler': 3 } }),
      });
      expect(save.status).toBe(200);
      expect((await a.waitFor('pricing')).data).toEqual({ changed: ['tools'] });
      await b.waitFor('pricing');

      // After the price change the price list shows it (what the client reloads on the event).
      const list = await fetch(`${base}/api/pricing`, { headers: user.headers }).then((r) => r.json());
      expect(list.find((r: { tool_name: string }) => r.tool_name === 'fal-upscaler').effective_cost).toBe(3);

      await t.ctx.services.energy.grant(user.id, 12, 'gift');
      expect((await a.waitFor('balance')).data).toEqual({ energy_balance: 12 });
      await t.ctx.services.energy.spend({ userId: user.id, cost: 3, toolName: 'Image Upscaler', description: 'run' });
      await a.waitFor('balance', (d) => d.energy_balance === 9);

      // The switch is broadcast too; B got it, but never A's balance events.
      const sw = await fetch(`${base}/api/settings/referral`, {
        method: 'PUT',
        headers: { ...admin.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ is_referral_only: true }),
      });
      expect(sw.status).toBe(200);
      await b.waitFor('pricing', (d) => d.changed?.includes('referral'));
      expect(b.events.some((e) => e.event === 'balance')).toBe(false);
    } finally {
      await a.close();
      await b.close();
      await t.db.query(`UPDATE referral_settings SET is_referral_only = false`);
    }
  });

  it('forgets a stream when the client goes away', async () => {
    const hub = t.ctx.services.realtime;
    // Streams of earlier tests are gone once the server has seen their sockets close.
    await until(() => hub.size === 0, 5000, 'earlier streams to close');
    const before = hub.size;
    const s = await openStream(user);
    await s.waitFor('ready');
    expect(hub.size).toBe(before + 1);
    await s.close();
    await until(() => hub.size === before, 5000, 'unsubscribe on disconnect');
  });

  it('caps open streams per account', async () => {
    const streams = [];
    try {
      for (let i = 0; i < 10; i++) {
        const s = await openStream(other);
        await s.waitFor('ready');
        streams.push(s);
      }
      const refused = await fetch(`${base}/api/events`, { headers: other.headers });
      expect(refused.status).toBe(429);
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });

  it('app.close() ends open streams instead of hanging', async () => {
    const own = await createTestApp();
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = own.app.server.address();
    const ownBase = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    const u = await registerUser(own);
    const res = await fetch(`${ownBase}/api/events`, { headers: u.headers });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('retry:');
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(5000);
    // The stream ends (done) rather than staying open.
    let done = false;
    const end = Date.now() + 5000;
    while (!done && Date.now() < end) {
      const r = await reader.read().catch(() => ({ done: true }));
      done = r.done === true;
    }
    expect(done).toBe(true);
  });
});
