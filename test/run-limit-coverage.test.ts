import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitMessages } from '../src/shared/limits.messages.js';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { png, upload } from './library.fixtures.js';

/**
 * Every route that starts paid work counts against the run limit (issue 22:
 * 40 job retries went through in 3.3 s against 20 runs a minute). The walk
 * calls every changing operation of the API document with real ids (a failed
 * run, a failed video, a batch with a failed item) and watches the queue:
 * an operation that enqueued a run must declare the shared run limit. A new
 * route that starts runs without it fails here, whatever it is called.
 */
const provider = createFakeAiProvider({ delayMs: 0 });
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TOOL_RUNS_PER_MINUTE: '1000', DATA_DIR: `./.tmp/run-limit-walk-${process.pid}` }, { provider });
});
afterAll(() => t?.close());

interface Operation {
  method: string;
  path: string;
  limit?: { name: string; limit: number };
  bodyProps: Record<string, unknown>;
  required: string[];
}

interface Scene {
  owner: TestUser;
  admin: TestUser;
  image: string;
  failedJob: string;
  failedVideo: string;
  batch: string;
}

async function failedVideo(owner: TestUser, image: string): Promise<{ job: string; item: string }> {
  provider.behaviour.failWith = 'Video generation failed';
  try {
    const res = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-image-to-video', headers: owner.headers, payload: { image_url: image, prompt: 'pan left' } });
    expect(res.statusCode).toBe(422);
  } finally {
    provider.behaviour.failWith = undefined;
  }
  const [row] = await t.db.query<{ id: string; job_id: string }>(
    `SELECT id, job_id FROM uploaded_images WHERE user_id = $1 AND status = 'failed' ORDER BY created_at DESC LIMIT 1`,
    [owner.id],
  );
  return { job: row!.job_id, item: row!.id };
}

async function newScene(): Promise<Scene> {
  const owner = await registerUser(t, { energy: 100_000 });
  const admin = await registerUser(t, { role: 'admin' });
  const up = await upload(t, owner, { filename: 'a.png', contentType: 'image/png', body: await png() });
  expect(up.statusCode).toBe(201);
  const image = up.json().id as string;
  const first = await failedVideo(owner, image);
  const second = await failedVideo(owner, image);
  provider.behaviour.failWith = 'Upscale failed';
  let batch: string;
  try {
    const res = await t.app.inject({ method: 'POST', url: '/api/batches', headers: owner.headers, payload: { tool: 'fal-upscaler', items: [image] } });
    expect(res.statusCode).toBe(201);
    batch = res.json().id;
    await expect.poll(async () => (await t.app.inject({ url: `/api/batches/${batch}`, headers: owner.headers })).json().counts?.failed, { timeout: 20_000 }).toBe(1);
  } finally {
    provider.behaviour.failWith = undefined;
  }
  return { owner, admin, image, failedJob: first.job, failedVideo: second.item, batch };
}

const alive = async (u: TestUser) => (await t.app.inject({ url: '/api/me', headers: u.headers })).statusCode === 200;

/** The body an operation needs, from its required properties and the scene's ids. */
function bodyFor(op: Operation, scene: Scene): Record<string, unknown> | undefined {
  const values: Record<string, unknown> = {
    image_url: scene.image,
    prompt: 'pan left slowly',
    tool: 'fal-upscaler',
    items: [scene.image],
    name: 'walk',
    email: scene.owner.email,
  };
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(op.bodyProps)) if (key in values) body[key] = values[key];
  return Object.keys(body).length || op.required.length ? body : undefined;
}

describe('the run limit covers every route that starts paid work', () => {
  it('walks the API document: each operation that enqueued a run declares the shared run limit', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { 'x-rate-limit'?: { name: string; limit: number }; requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown>; required?: string[] } }> } }>>;
    };
    const operations: Operation[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
        const schema = op.requestBody?.content?.['application/json']?.schema;
        operations.push({ method: method.toUpperCase(), path, limit: op['x-rate-limit'], bodyProps: schema?.properties ?? {}, required: schema?.required ?? [] });
      }
    }
    // Deleting comes last: it would take the scene's things away from the others.
    operations.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    expect(operations.length).toBeGreaterThan(40);

    const queue = t.ctx.services.queue;
    const send = queue.sendToolRun.bind(queue);
    let sent = 0;
    queue.sendToolRun = async (...args) => {
      sent += 1;
      return send(...args);
    };
    const enqueued = new Map<string, Operation>();
    let scene = await newScene();
    try {
      for (const op of operations) {
        const ids = op.path.includes('{') ? [scene.failedJob, scene.failedVideo, scene.batch, scene.image] : [''];
        for (const id of ids) {
          const url = op.path.replace(/\{[^}]+\}/g, encodeURIComponent(id));
          const caller = op.path.includes('/admin') ? scene.admin : scene.owner;
          const before = sent;
          await t.app.inject({ method: op.method as 'POST', url, headers: caller.headers, payload: bodyFor(op, scene) });
          if (sent > before) {
            enqueued.set(`${op.method} ${op.path}`, op);
            break;
          }
        }
        // A run started, or a call that ended the caller: the next operation gets a fresh scene.
        if (enqueued.has(`${op.method} ${op.path}`) || !(await alive(scene.owner)) || !(await alive(scene.admin))) scene = await newScene();
      }
    } finally {
      queue.sendToolRun = send;
    }

    // The walk did reach the routes known to start runs (so it would reach a new one too).
    expect([...enqueued.keys()]).toEqual(
      expect.arrayContaining([
        'POST /functions/v1/fal-upscaler',
        'POST /api/batches',
        'POST /api/jobs/{id}/retry',
        'POST /api/library/{id}/retry',
        'POST /api/batches/{id}/retry-failed',
        'POST /api/admin/jobs/{id}/retry',
      ]),
    );
    const unlimited = [...enqueued.entries()].filter(([, op]) => op.limit?.name !== 'tool-runs').map(([name]) => name);
    expect(unlimited).toEqual([]);
  }, 300_000);

  it('retries share the run counter with runs: past the limit, 429 with the run limit message', async () => {
    const limited = await createTestApp({ TOOL_RUNS_PER_MINUTE: '3', DATA_DIR: `./.tmp/run-limit-retry-${process.pid}` }, { provider });
    try {
      const owner = await registerUser(limited, { energy: 1000 });
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await limited.app.inject({ method: 'POST', url: '/api/jobs/00000000-0000-4000-8000-000000000000/retry', headers: owner.headers }));
      expect(answers.map((a) => a.statusCode)).toEqual([404, 404, 404, 429, 429]);
      expect(answers[3]!.json()).toMatchObject({ error: limitMessages.toolRuns(3), code: 'rate_limited' });
      const library = await limited.app.inject({ method: 'POST', url: '/api/library/00000000-0000-4000-8000-000000000000/retry', headers: owner.headers });
      expect(library.statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
