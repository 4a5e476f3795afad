/**
 * The editor's reading over HTTP: POST /api/tools/fal-image-editor/interpret
 * answers what a run would do; a run the editor refuses (generative, unknown)
 * costs nothing and creates no job; with a cloud editor the words go through
 * unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { createMemoryMedia } from './helpers/memory-media.js';
import { INTERPRETATIONS_PER_MINUTE } from '../src/server/features/tools/interpret.routes.js';
import { editInterpretation } from '../src/shared/edit-language/interpretation.schema.js';
import type { AiProvider } from '../src/server/providers/ai/ai-provider.js';
import { createFalAiProvider } from '../src/server/providers/ai/fal/index.js';
import { createLocalAiProvider } from '../src/server/providers/ai/local/index.js';
import { BUILT_IN_TOOLS } from '../src/server/tools/index.js';
import { ToolRegistry } from '../src/server/tools/registry.js';

const IMAGE = 'https://x.test/photo.png';

describe('with the local editor', () => {
  const provider = createFakeAiProvider({ delayMs: 10 });
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { provider, media: createMemoryMedia() });
  });
  afterAll(() => t.close());

  const balance = async (userId: string) =>
    (await t.db.query<{ energy_balance: number }>('SELECT energy_balance FROM user_profiles WHERE id = $1', [userId]))[0]!.energy_balance;
  const jobs = async (userId: string) => t.db.query('SELECT id FROM tool_jobs WHERE user_id = $1', [userId]);
  const ledger = async (userId: string) => t.db.query('SELECT id FROM energy_transactions WHERE user_id = $1', [userId]);
  const interpret = (user: TestUser, prompt: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/tools/fal-image-editor/interpret', headers: user.headers, payload: { prompt } });

  it('answers the reading, checked against its declared schema', async () => {
    const user = await registerUser(t);
    const res = await interpret(user, 'please make it a bit brighter, add a vignette and crop to 16:9');
    expect(res.statusCode).toBe(200);
    const body = editInterpretation.parse(res.json());
    expect(body).toMatchObject({ status: 'ready', summary: 'brightness +10%, vignette, crop 16:9', message: null });
    expect(body.steps.map((s) => s.op.type)).toEqual(['brightness', 'vignette', 'crop']);
    const refused = editInterpretation.parse((await interpret(user, 'add fireworks')).json());
    expect(refused.status).toBe('needs_generative');
  });

  it.each([
    ['add fireworks', /needs a generative AI model.*cloud AI editor configured/],
    ['remove the person on the left', /needs a generative AI model/],
    ['make it look like a potato', /couldn't understand "make it look like a potato".*closest things this editor can do: '/],
  ])('refuses %j before any charge: balance unchanged, no job, the reading in the answer', async (prompt, message) => {
    const user = await registerUser(t, { energy: 25 });
    const ledgerBefore = (await ledger(user.id)).length;
    const res = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-image-editor', headers: user.headers, payload: { image_url: IMAGE, prompt } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation');
    expect(body.error).toMatch(message);
    expect(body.error).toMatch(/nothing was charged/);
    expect(editInterpretation.parse(body.interpretation).suggestions.length).toBeGreaterThan(0);
    expect(await balance(user.id)).toBe(25);
    expect(await jobs(user.id)).toHaveLength(0);
    expect(await ledger(user.id)).toHaveLength(ledgerBefore);
    expect(provider.calls.filter((c) => c.tool === 'fal-image-editor')).toHaveLength(0);
  });

  it('needs a signed-in user, caps the prompt and refuses what is not a string', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/tools/fal-image-editor/interpret', payload: { prompt: 'x' } })).statusCode).toBe(401);
    const user = await registerUser(t);
    const long = await interpret(user, 'brighter '.repeat(200));
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toMatch(/too long/);
    expect((await interpret(user, { $ne: 1 })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/tools/fal-upscaler/interpret', headers: user.headers, payload: { prompt: 'x' } })).statusCode).toBe(404);
  });

  it('is rate-limited per user', async () => {
    const user = await registerUser(t);
    const codes: number[] = [];
    for (let i = 0; i <= INTERPRETATIONS_PER_MINUTE; i++) codes.push((await interpret(user, `brighter ${i}`)).statusCode);
    expect(codes.slice(0, INTERPRETATIONS_PER_MINUTE).every((c) => c === 200)).toBe(true);
    expect(codes[INTERPRETATIONS_PER_MINUTE]).toBe(429);
    // Another user is not affected.
    expect((await interpret(await registerUser(t), 'brighter')).statusCode).toBe(200);
  });
});

describe('with a cloud editor (its reading takes the words as written)', () => {
  const cloud = createFakeAiProvider({ delayMs: 10, readsLike: 'fal' });
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { provider: cloud, media: createMemoryMedia() });
  });
  afterAll(() => t.close());

  it('sends a generative request as written, and says so before the run', async () => {
    const user = await registerUser(t, { energy: 10 });
    const reading = await t.app.inject({ method: 'POST', url: '/api/tools/fal-image-editor/interpret', headers: user.headers, payload: { prompt: 'add fireworks' } });
    expect(reading.json()).toMatchObject({ status: 'cloud', message: null });
    const res = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-image-editor', headers: user.headers, payload: { image_url: IMAGE, prompt: 'add fireworks over the lake' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().prompt_used).toBe('add fireworks over the lake');
  });
});

describe("each provider reads a request as its editor does (the editor folder's readings)", () => {
  const editor = new ToolRegistry(BUILT_IN_TOOLS).get('fal-image-editor');
  const read = (provider: AiProvider, prompt: string) => editInterpretation.parse(editor.interpretation!.run(provider, { prompt }));

  it('local: its own reading, which refuses what needs a generative model; fal: the words as written', async () => {
    const local = createLocalAiProvider({ threads: 1 });
    try {
      expect(read(local, 'add fireworks').status).toBe('needs_generative');
      expect(read(local, 'make it brighter').status).toBe('ready');
    } finally {
      await local.close();
    }
    const fal = createFalAiProvider({ apiKey: 'test-only' });
    expect(read(fal, 'add fireworks')).toMatchObject({ status: 'cloud', message: null });
    expect(editor.refuse(fal, { image_url: IMAGE, prompt: 'add fireworks' })).toBeNull();
  });
});
