import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, uploadPicture, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';

// Tool runs against the real media library (local storage, thumbnails, pending videos).
const provider = createFakeAiProvider({ delayMs: 100 });
let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: `./.tmp/tool-library-${process.pid}` }, { provider, maxAttempts: 1 });
  user = await registerUser(t, { energy: 100 });
});
afterAll(() => t.close());

const uploadPng = () => uploadPicture(t, user, 'red.png');

const item = async (id: string) => (await t.app.inject({ url: `/api/library/${id}`, headers: user.headers })).json();

describe('tool results in the library', () => {
  it('an upscale of a library item lands in the library as Generated, once, with the original linked', async () => {
    const input = await uploadPng();
    const res = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: user.headers, payload: { image_url: input } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.upscaled_url).toContain('/api/files/');
    expect(body.original_url).toContain('/api/files/');
    const saved = await item(body.library_item_id);
    expect(saved).toMatchObject({ is_generated: true, generation_type: 'AI Image Upscaler', status: 'ready', job_id: body.job_id, content_type: 'image/png' });
    expect(saved.thumbnail_url).toBeTruthy();
    // The file behind the link is the result.
    const file = await t.app.inject({ url: body.upscaled_url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    const counts = (await t.app.inject({ url: '/api/library/counts', headers: user.headers })).json();
    expect(counts.images).toMatchObject({ generated: 1, uploaded: 1 });
  });

  it('a URL that is not one of ours and not public is refused before any charge', async () => {
    const before = (await t.app.inject({ url: '/api/me', headers: user.headers })).json().energy_balance;
    const res = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: user.headers, payload: { image_url: 'http://127.0.0.1:1/x.png' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/not allowed|private|local/i);
    expect((await t.app.inject({ url: '/api/me', headers: user.headers })).json().energy_balance).toBe(before);
  });

  it('image to video shows a pending item while generating, then a playable video', async () => {
    provider.behaviour.delayMs = 1_500;
    try {
      const input = await uploadPng();
      const run = t.app.inject({ method: 'POST', url: '/functions/v1/fal-image-to-video', headers: user.headers, payload: { image_url: input, prompt: 'slow zoom in on the red square' } });
      let pending;
      for (let i = 0; i < 40 && !pending; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const list = (await t.app.inject({ url: '/api/library?kind=video', headers: user.headers })).json();
        pending = list.items.find((v: { status: string }) => v.status === 'pending');
      }
      expect(pending).toBeTruthy();
      expect(pending.storage_path).toContain('pending/');
      expect(pending.url).toBeUndefined();
      expect(pending.original_name).toBe('Video slow zoom in on the red square');
      const res = await run;
      expect(res.statusCode).toBe(200);
      const done = await item(pending.id);
      expect(done).toMatchObject({ status: 'ready', job_id: res.json().job_id });
      expect(done.url).toBeTruthy();
      expect(done.storage_path).not.toContain('pending/');
    } finally {
      provider.behaviour.delayMs = 100;
    }
  });

  it('a failed video stays with a retry action; retry runs again (charged again) into the same entry', async () => {
    const input = await uploadPng();
    provider.behaviour.failWith = 'Video generation failed';
    let failedId: string;
    try {
      const res = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-image-to-video', headers: user.headers, payload: { image_url: input, prompt: 'pan left' } });
      expect(res.statusCode).toBe(422);
      const list = (await t.app.inject({ url: '/api/library?kind=video', headers: user.headers })).json();
      const failed = list.items.find((v: { status: string }) => v.status === 'failed');
      expect(failed).toMatchObject({ error: 'Video generation failed' });
      failedId = failed.id;
    } finally {
      provider.behaviour.failWith = undefined;
    }
    const balanceBefore = (await t.app.inject({ url: '/api/me', headers: user.headers })).json().energy_balance;
    const retry = await t.app.inject({ method: 'POST', url: `/api/library/${failedId}/retry`, headers: user.headers });
    expect(retry.statusCode).toBe(200);
    const jobId = (await item(failedId)).job_id;
    await t.ctx.services.tools!.events.waitForEnd(jobId, 20_000);
    expect(await item(failedId)).toMatchObject({ status: 'ready', error: null });
    expect((await t.app.inject({ url: '/api/me', headers: user.headers })).json().energy_balance).toBe(balanceBefore - 5);
    // Another user cannot retry it.
    const other = await registerUser(t);
    expect((await t.app.inject({ method: 'POST', url: `/api/library/${failedId}/retry`, headers: other.headers })).statusCode).toBe(404);
  });
});

describe('deleting a video that is still generating', () => {
  it('stops its run and refunds it; nothing comes back', async () => {
    provider.behaviour.delayMs = 3_000;
    try {
      const input = await uploadPng();
      const before = (await t.app.inject({ url: '/api/me', headers: user.headers })).json().energy_balance;
      const run = t.app.inject({ method: 'POST', url: '/functions/v1/fal-image-to-video', headers: user.headers, payload: { image_url: input, prompt: 'zoom out' } });
      let pending: { id: string; job_id: string } | undefined;
      for (let i = 0; i < 60 && !pending; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const list = (await t.app.inject({ url: '/api/library?kind=video', headers: user.headers })).json();
        pending = list.items.find((v: { status: string; prompt: string }) => v.status === 'pending' && v.prompt === 'zoom out');
      }
      expect(pending).toBeTruthy();
      expect((await t.app.inject({ method: 'DELETE', url: `/api/library/${pending!.id}`, headers: user.headers })).statusCode).toBe(200);
      const res = await run;
      expect(res.statusCode).toBe(422);
      expect(res.json().status).toBe('canceled');
      // The worker's handler has returned: whatever it would have saved is decided.
      await t.ctx.services.queue.idle();
      const list = (await t.app.inject({ url: '/api/library?kind=video', headers: user.headers })).json();
      expect(list.items.find((v: { job_id: string }) => v.job_id === pending!.job_id)).toBeUndefined();
      expect((await t.app.inject({ url: '/api/me', headers: user.headers })).json().energy_balance).toBe(before);
    } finally {
      provider.behaviour.delayMs = 100;
    }
  });
});
