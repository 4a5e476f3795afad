import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, uploadPicture, type TestApp } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { toyTool } from './helpers/toy-tool/server.js';
import { BUILT_IN_TOOLS } from '../src/server/tools/index.js';
import { ToolRegistry } from '../src/server/tools/registry.js';
import { parseConfig } from '../src/server/config.js';
import { createFalAiProvider } from '../src/server/providers/ai/fal/index.js';
import { createLocalAiProvider } from '../src/server/providers/ai/local/index.js';
import sharp from 'sharp';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A sixth tool from its folder (test/helpers/toy-tool) plus one entry in the app's tool list: it
 * must show up in the routes, the time estimate, the provider info, the API document, the price
 * list, the worker and batches, with nothing else written for it. The test's provider is the fake
 * that answers any tool from its info, as it answers the built-in ones: nothing is added to it.
 */
const provider = createFakeAiProvider();
const toyCalls = () => provider.calls.filter((c) => c.tool === 'toy-invert').map((c) => c.input);
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(
    // Its provider setting is read like the built-in tools' (the run itself goes to the test provider).
    { DATA_DIR: `./.tmp/toy-tool-${process.pid}`, FAL_KEY: 'test-only', AI_PROVIDER: 'local', AI_PROVIDER_TOY_INVERT: 'fal' },
    { provider, tools: [...BUILT_IN_TOOLS, toyTool], maxAttempts: 1 },
  );
});
afterAll(() => t.close());

const balance = async (userId: string) =>
  (await t.db.query<{ energy_balance: number }>('SELECT energy_balance FROM user_profiles WHERE id = $1', [userId]))[0]!.energy_balance;

describe('a sixth tool from its folder', () => {
  it('is routed, priced at its default, run by the worker and answers its own fields', async () => {
    const user = await registerUser(t, { energy: 10 });
    const image = await uploadPicture(t, user, 'cat.png');
    const res = await t.app.inject({ method: 'POST', url: '/functions/v1/toy-invert', headers: user.headers, payload: { image_url: image, strength: 0.5 } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ energy_used: 3, model: 'fake-toy-invert', strength: 0.5 });
    expect(body.inverted_url).toEqual(expect.any(String));
    expect(toyCalls()).toContainEqual({ strength: 0.5 });
    expect(await balance(user.id)).toBe(7);
    const [job] = await t.db.query<{ tool: string; status: string; result: Record<string, unknown> }>('SELECT tool, status, result FROM tool_jobs WHERE id = $1', [body.job_id]);
    expect(job).toMatchObject({ tool: 'toy-invert', status: 'succeeded', result: { strength: 0.5, model: 'fake-toy-invert' } });
  });

  it('validates with its own schema before any charge', async () => {
    const user = await registerUser(t, { energy: 10 });
    const res = await t.app.inject({ method: 'POST', url: '/functions/v1/toy-invert', headers: user.headers, payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Please select an image to invert', code: 'validation', request_id: expect.any(String) });
    expect(await balance(user.id)).toBe(10);
  });

  it('has a time estimate: its published range before enough runs', async () => {
    const user = await registerUser(t);
    const res = await t.app.inject({ url: '/api/tools/toy-invert/estimate', headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ source: 'default', text: '1-2 seconds' });
    // A tool nobody registered is still refused.
    expect((await t.app.inject({ url: '/api/tools/toy-nothing/estimate', headers: user.headers })).statusCode).toBe(400);
  });

  it('is listed by /api/tools/info with the provider its own setting picks', async () => {
    const user = await registerUser(t);
    const { providers } = (await t.app.inject({ url: '/api/tools/info', headers: user.headers })).json() as { providers: Record<string, string> };
    expect(providers).toEqual({
      'fal-image-editor': 'local',
      'fal-image-restore': 'local',
      'fal-upscaler': 'local',
      'fal-image-to-video': 'local',
      'fal-video-upscaler': 'local',
      'toy-invert': 'fal',
    });
  });

  it('appears in the price list', async () => {
    const user = await registerUser(t);
    const rows = (await t.app.inject({ url: '/api/pricing', headers: user.headers })).json() as Array<{ tool_name: string; base_energy_cost: number; display_name: string }>;
    expect(rows).toContainEqual(expect.objectContaining({ tool_name: 'toy-invert', base_energy_cost: 3, display_name: 'Toy Inverter' }));
  });

  it('appears in the API document: its call, the estimate and the batch tools', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const op = doc.paths['/functions/v1/toy-invert'].post;
    expect(op.summary).toBe('Toy Inverter');
    expect(op.requestBody.content['application/json'].schema.properties).toHaveProperty('strength');
    expect(op.responses['200'].content['application/json'].schema.properties).toHaveProperty('inverted_url');
    expect(op.responses).toHaveProperty('202');
    const estimateParam = doc.paths['/api/tools/{tool}/estimate'].get.parameters.find((p: { name: string }) => p.name === 'tool');
    // Named as strings checked against the registry (so the web names a registry tool without a cast); the document lists them.
    expect(estimateParam.description).toMatch(/\btoy-invert\b/);
    const batchBody = doc.paths['/api/batches'].post.requestBody.content['application/json'].schema;
    expect(batchBody.properties.tool.description).toBe('A tool that runs in batches: fal-image-editor, fal-image-restore, fal-upscaler, toy-invert');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'cookie']);
  });

  it('a provider result the result schema refuses fails the run, refunded, and nothing is recorded as a success', async () => {
    const user = await registerUser(t, { energy: 10 });
    const image = await uploadPicture(t, user, 'dog.png');
    provider.behaviour.modelOutsideSchema = true;
    try {
      const res = await t.app.inject({ method: 'POST', url: '/functions/v1/toy-invert', headers: user.headers, payload: { image_url: image } });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: 'Failed to invert image', code: 'tool_failed', refunded: true, energy_refunded: 3 });
    } finally {
      provider.behaviour.modelOutsideSchema = false;
    }
    expect(await balance(user.id)).toBe(10);
  });

  it('the worker re-parses a stored input with the tool schema', async () => {
    const user = await registerUser(t, { energy: 10 });
    const image = await uploadPicture(t, user, 'a.png');
    const res = await t.app.inject({ method: 'POST', url: '/functions/v1/toy-invert', headers: { ...user.headers, prefer: 'respond-async' }, payload: { image_url: image } });
    expect(res.statusCode).toBe(202);
    const { job_id } = res.json();
    await expect.poll(async () => (await t.app.inject({ url: `/api/jobs/${job_id}`, headers: user.headers })).json().status, { timeout: 10_000, interval: 25 }).toBe('succeeded');
    // The default the schema filled in reached the provider.
    expect(toyCalls().at(-1)).toEqual({ strength: 1 });
  });

  it('runs in a batch: estimated, charged per image and run for each', async () => {
    const user = await registerUser(t, { energy: 20 });
    const items = [await uploadPicture(t, user, 'b1.png'), await uploadPicture(t, user, 'b2.png')];
    const request = { tool: 'toy-invert', settings: { strength: 0.25 }, items };
    const estimate = await t.app.inject({ method: 'POST', url: '/api/batches/estimate', headers: user.headers, payload: request });
    expect(estimate.statusCode).toBe(200);
    expect(estimate.json()).toMatchObject({ tool: 'toy-invert', item_count: 2, unit_cost: 3, total_cost: 6, affordable_count: 2 });
    const created = await t.app.inject({ method: 'POST', url: '/api/batches', headers: user.headers, payload: request });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    await expect.poll(async () => (await t.app.inject({ url: `/api/batches/${id}`, headers: user.headers })).json().status, { timeout: 20_000, interval: 50 }).toBe('done');
    const done = (await t.app.inject({ url: `/api/batches/${id}`, headers: user.headers })).json();
    expect(done).toMatchObject({ tool: 'toy-invert', counts: { succeeded: 2 }, energy_charged: 6 });
    expect(await balance(user.id)).toBe(14);
    expect(toyCalls().filter((c) => (c as { strength: number }).strength === 0.25)).toHaveLength(2);
  });

  it('a target size is checked against the limit its own info declares, alone and in a batch, before any charge', async () => {
    const user = await registerUser(t, { energy: 20 });
    const image = await uploadPicture(t, user, 't.png', 40, 30);
    const tooLarge = 'That size is more than the Toy Inverter can make from this image (80 px wide at most). Choose a smaller size.';
    const run = await t.app.inject({ method: 'POST', url: '/functions/v1/toy-invert', headers: user.headers, payload: { image_url: image, output: { width: 81 } } });
    expect(run.statusCode).toBe(400);
    expect(run.json()).toMatchObject({ code: 'validation', error: tooLarge });
    const batch = await t.app.inject({ method: 'POST', url: '/api/batches', headers: user.headers, payload: { tool: 'toy-invert', settings: { output: { width: 81 } }, items: [image] } });
    expect(batch.statusCode).toBe(400);
    expect(batch.json().error).toBe(`t.png: ${tooLarge}`);
    expect(await balance(user.id)).toBe(20);
    const within = await t.app.inject({ method: 'POST', url: '/functions/v1/toy-invert', headers: user.headers, payload: { image_url: image, output: { width: 80 } } });
    expect(within.statusCode).toBe(200);
  });

  it('a tool that does not declare batch is refused in a batch, before any charge', async () => {
    const user = await registerUser(t, { energy: 20 });
    const image = await uploadPicture(t, user, 'v.png');
    const res = await t.app.inject({ method: 'POST', url: '/api/batches', headers: user.headers, payload: { tool: 'fal-image-to-video', settings: { prompt: 'wave' }, items: [image] } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation', error: 'Choose a tool for the batch' });
    expect(await balance(user.id)).toBe(20);
  });
});

describe('the toy is its folder plus one line', () => {
  const root = path.resolve(import.meta.dirname, '..');
  const folder = path.join(root, 'test/helpers/toy-tool');
  const toolFolders = () => fs.readdirSync(path.join(root, 'src/tools'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(ts|tsx|mjs)$/.test(e.name) ? [path.join(dir, e.name)] : []));

  it('its folder holds its info, schemas, server half, local hook and web half, like a built-in tool folder', () => {
    expect(fs.readdirSync(folder).sort()).toEqual(['card.ts', 'form.ts', 'info.ts', 'local.ts', 'schemas.ts', 'server.ts', 'web.ts']);
    for (const builtIn of toolFolders()) {
      expect(fs.readdirSync(path.join(root, 'src/tools', builtIn))).toEqual(expect.arrayContaining(['card.ts', 'form.ts', 'info.ts', 'schemas.ts', 'server.ts', 'web.tsx']));
    }
  });

  it("the server's tool list is the one line a built-in tool adds: every folder is on it, under its folder's name", () => {
    expect(BUILT_IN_TOOLS.map((tool) => tool.info.endpoint).sort()).toEqual(toolFolders().sort());
  });

  it('no product code or other test helper names it: the app gets it only from the tool list this test passes', () => {
    // Tests may name it (the web registry's test adds it, as this one does).
    const outside = [...sources(path.join(root, 'src')), ...sources(path.join(root, 'test/helpers')).filter((f) => !f.startsWith(folder + path.sep))].filter(
      (f) => !/\.test\.tsx?$/.test(f),
    );
    const naming = outside.filter((f) => /toy-invert|toyTool|toyInfo|invertLocally/.test(fs.readFileSync(f, 'utf8')));
    expect(naming.map((f) => path.relative(root, f))).toEqual([]);
  });
});

describe('its local hook', () => {
  it('is what the local provider runs: the picture comes back as its negative', async () => {
    const local = createLocalAiProvider({ threads: 1 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toy-invert-'));
    try {
      const media = { path: path.join(dir, 'in.png'), contentType: 'image/png' };
      await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 10, g: 200, b: 60 } } }).png().toFile(media.path);
      const source = async () => ({ media, originalUrl: 'in.png', itemId: null });
      const run = await toyTool.execute(local, { image_url: 'in.png' }, source, { signal: new AbortController().signal, onProgress: () => {}, workDir: dir });
      expect(run.result).toMatchObject({ model: 'toy-negate (local)', strength: 1 });
      const pixels = await sharp(run.output.path).raw().toBuffer();
      expect([...pixels.subarray(0, 3)]).toEqual([245, 55, 195]);
    } finally {
      await local.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the app refuses to start with a tool it cannot run', () => {
  it('no provider can run it: the toy has a local hook only, and every tool here is given to fal', async () => {
    const fal = createFalAiProvider({ apiKey: 'test-only' });
    await expect(createTestApp({}, { provider: fal, tools: [...BUILT_IN_TOOLS, toyTool] })).rejects.toThrow(/Tools not ready:\n {2}toy-invert: provider 'fal' cannot run it$/);
    // Starts its own app (an embedded database boot), as a beforeAll does: the same room as a hook.
  }, 60_000);

  it('a provider setting that names no tool (a typo would run the tool on the default provider unnoticed)', async () => {
    await expect(
      createTestApp({ AI_PROVIDER_TOY_INVRT: 'local' }, { provider, tools: [...BUILT_IN_TOOLS, toyTool] }),
    ).rejects.toThrow(/AI_PROVIDER_TOY_INVRT: names no tool/);
  }, 60_000);

  it('a provider setting with a value that is no provider', () => {
    expect(() => parseConfig({ NODE_ENV: 'test', AI_PROVIDER_TOY_INVERT: 'cloud' })).toThrow(/AI_PROVIDER_TOY_INVERT/);
    expect(() => parseConfig({ NODE_ENV: 'test', AI_PROVIDER_TOY_INVERT: 'fal' })).toThrow(/AI_PROVIDER_TOY_INVERT: is 'fal' but FAL_KEY is not set/);
  });

  it('no price row', async () => {
    // Price rows come from the definitions; a registry not seeded shows what the check guards.
    const registry = new ToolRegistry([toyTool]);
    await expect(registry.verify(t.db, () => provider)).resolves.toBeUndefined();
    await t.db.query("DELETE FROM admin_tool_pricing WHERE tool_name = 'toy-invert'");
    try {
      await expect(registry.verify(t.db, () => provider)).rejects.toThrow(/toy-invert: no price row 'toy-invert'/);
    } finally {
      await registry.seedPrices(t.db);
    }
  });

  it('no response mapping', async () => {
    const unmapped = { ...toyTool, respond: undefined } as unknown as typeof toyTool;
    await expect(new ToolRegistry([unmapped]).verify(t.db, () => provider)).rejects.toThrow(/toy-invert: no response mapping/);
  });
});
