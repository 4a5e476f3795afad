import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, registerUser, type TestApp } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { createMemoryMedia } from './helpers/memory-media.js';
import { defineTool } from '../src/server/tools/tool-definition.js';
import { BUILT_IN_TOOLS } from '../src/server/tools/index.js';
import type { AiProvider, LocalMedia, MediaOutput, RunContext } from '../src/server/providers/ai/ai-provider.js';
import { baseResult, runAnswer } from '../src/shared/tool-results.js';

/**
 * A sixth tool written here and nowhere else: one definition, given to the
 * app, must show up in the routes, the API document, the price list and the
 * worker.
 */
interface Inverter {
  invertImage(input: { image: LocalMedia; strength: number }, ctx: RunContext): Promise<MediaOutput>;
}
const canInvert = (p: AiProvider): p is AiProvider & Inverter => typeof (p as Partial<Inverter>).invertImage === 'function';

const invertResult = baseResult.extend({ strength: z.number() });
const invertTool = defineTool({
  info: {
    endpoint: 'toy-invert',
    pricing: 'toy-invert',
    price: { default: 3, displayName: 'Toy Inverter', description: 'Turns an image into its negative' },
    input: 'image',
    output: 'image',
    view: 'toy-invert',
    title: 'Toy Inverter',
    operation: 'Inverting your image',
    estimate: '1 second',
    timeLimitSeconds: 60,
    failure: 'Failed to invert image',
    newRunLabel: 'New Inversion',
    label: 'Toy Inverter',
  },
  input: z.object({
    image_url: z.string({ message: 'Please select an image to invert' }).min(1, { message: 'Please select an image to invert' }),
    strength: z.number().min(0).max(1).default(1),
  }),
  result: invertResult,
  response: z.object({ ...runAnswer, inverted_url: z.string().nullable(), original_url: z.string(), strength: z.number() }),
  source: (input) => input.image_url,
  supports: canInvert,
  async run(provider, input, image, ctx) {
    if (!canInvert(provider)) throw new Error('provider cannot invert');
    const out = await provider.invertImage({ image, strength: input.strength }, ctx);
    return { output: out, result: { model: out.model, strength: input.strength }, prompt: null };
  },
  respond: (result, links) => ({ inverted_url: links.url, original_url: links.originalUrl, strength: result.strength }),
});

const inverted: Array<{ strength: number }> = [];
let answerBadly = false;
const provider = Object.assign(createFakeAiProvider(), {
  async invertImage(input: { image: LocalMedia; strength: number }, ctx: RunContext): Promise<MediaOutput> {
    inverted.push({ strength: input.strength });
    ctx.onProgress({ stage: 'Inverting', fraction: 0.5 });
    const file = path.join(ctx.workDir, 'negative.png');
    await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 255, g: 255, b: 255 } } }).negate().png().toFile(file);
    // A provider that answers something else than the result schema allows.
    return { path: file, contentType: 'image/png', model: answerBadly ? (42 as unknown as string) : 'toy-negate' };
  },
});
const media = createMemoryMedia();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { provider, media, tools: [...BUILT_IN_TOOLS, invertTool], maxAttempts: 1 });
});
afterAll(() => t.close());

const balance = async (userId: string) =>
  (await t.db.query<{ energy_balance: number }>('SELECT energy_balance FROM user_profiles WHERE id = $1', [userId]))[0].energy_balance;

describe('a sixth tool from one definition', () => {
  it('is routed, priced at its default, run by the worker and answers its own fields', async () => {
    const user = await registerUser(t, { energy: 10 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/toy-invert',
      headers: user.headers,
      payload: { image_url: 'https://x.test/cat.png', strength: 0.5 },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ energy_used: 3, model: 'toy-negate', original_url: 'https://x.test/cat.png', strength: 0.5 });
    expect(body.inverted_url).toMatch(/^http:\/\/files\.test\//);
    expect(inverted).toContainEqual({ strength: 0.5 });
    expect(await balance(user.id)).toBe(7);
    const [job] = await t.db.query<{ tool: string; status: string; result: Record<string, unknown> }>(
      'SELECT tool, status, result FROM tool_jobs WHERE id = $1',
      [body.job_id],
    );
    expect(job).toMatchObject({ tool: 'toy-invert', status: 'succeeded', result: { strength: 0.5, model: 'toy-negate' } });
  });

  it('validates with its own schema before any charge', async () => {
    const user = await registerUser(t, { energy: 10 });
    const res = await t.app.inject({ method: 'POST', url: '/functions/v1/toy-invert', headers: user.headers, payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Please select an image to invert', code: 'validation', request_id: expect.any(String) });
    expect(await balance(user.id)).toBe(10);
  });

  it('appears in the price list', async () => {
    const user = await registerUser(t);
    const rows = (await t.app.inject({ url: '/api/pricing', headers: user.headers })).json() as Array<{ tool_name: string; base_energy_cost: number; display_name: string }>;
    expect(rows).toContainEqual(expect.objectContaining({ tool_name: 'toy-invert', base_energy_cost: 3, display_name: 'Toy Inverter' }));
  });

  it('appears in the API document with its body and answers', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const op = doc.paths['/functions/v1/toy-invert'].post;
    expect(op.summary).toBe('Toy Inverter');
    expect(op.requestBody.content['application/json'].schema.properties).toHaveProperty('strength');
    expect(op.responses['200'].content['application/json'].schema.properties).toHaveProperty('inverted_url');
    expect(op.responses).toHaveProperty('202');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'cookie']);
  });

  it('a provider result the result schema refuses fails the run, refunded, and nothing is recorded as a success', async () => {
    const user = await registerUser(t, { energy: 10 });
    answerBadly = true;
    try {
      const res = await t.app.inject({ method: 'POST', url: '/functions/v1/toy-invert', headers: user.headers, payload: { image_url: 'https://x.test/dog.png' } });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: 'Failed to invert image', code: 'tool_failed', refunded: true, energy_refunded: 3 });
    } finally {
      answerBadly = false;
    }
    expect(await balance(user.id)).toBe(10);
  });

  it('the worker re-parses a stored input with the tool schema', async () => {
    const user = await registerUser(t, { energy: 10 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/toy-invert',
      headers: { ...user.headers, prefer: 'respond-async' },
      payload: { image_url: 'https://x.test/a.png' },
    });
    expect(res.statusCode).toBe(202);
    // The default the schema filled in reached the provider.
    const { job_id } = res.json();
    const end = Date.now() + 10_000;
    let status = '';
    while (Date.now() < end && status !== 'succeeded') {
      status = (await t.app.inject({ url: `/api/jobs/${job_id}`, headers: user.headers })).json().status;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(status).toBe('succeeded');
    expect(inverted.at(-1)).toEqual({ strength: 1 });
  });
});

describe('the app refuses to start with a tool it cannot run', () => {
  it('no provider can run it', async () => {
    await expect(
      createTestApp({}, { provider: createFakeAiProvider(), media: createMemoryMedia(), tools: [...BUILT_IN_TOOLS, invertTool] }),
    ).rejects.toThrow(/toy-invert: provider 'fake' cannot run it/);
    // Starts its own app (an embedded database boot), as a beforeAll does: the same room as a hook.
  }, 60_000);

  it('no price row', async () => {
    // Price rows come from the definitions; a registry not seeded shows what the check guards.
    const { ToolRegistry } = await import('../src/server/tools/registry.js');
    const registry = new ToolRegistry([invertTool]);
    await expect(registry.verify(t.db, () => provider)).resolves.toBeUndefined();
    await t.db.query("DELETE FROM admin_tool_pricing WHERE tool_name = 'toy-invert'");
    try {
      await expect(registry.verify(t.db, () => provider)).rejects.toThrow(/toy-invert: no price row 'toy-invert'/);
    } finally {
      await registry.seedPrices(t.db);
    }
  });

  it('no response mapping', async () => {
    const { ToolRegistry } = await import('../src/server/tools/registry.js');
    const unmapped = { ...invertTool, respond: undefined } as unknown as typeof invertTool;
    await expect(new ToolRegistry([unmapped]).verify(t.db, () => provider)).rejects.toThrow(/toy-invert: no response mapping/);
  });
});
