import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputMessages } from '../src/shared/limits.messages.js';
import { registrationMessages } from '../src/shared/registration.messages.js';
import { safeDownloadName } from '../src/server/media/download-name.js';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { png, tempDir, upload } from './library.fixtures.js';

/** Hostile input refused at the edge (400, never 500), names with bounds, and download names that cannot lie. */
let t: TestApp;
let user: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: tempDir('pr-input-') }, { provider: createFakeAiProvider({ delayMs: 0 }) });
  user = await registerUser(t, { energy: 20 });
  admin = await registerUser(t, { role: 'admin' });
}, 60_000);
afterAll(() => t.close());

const json = (method: 'POST' | 'GET', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { 'content-type': 'application/json', ...headers }, ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }) });

describe('NUL and other unstorable input is a 400 at the edge', () => {
  it.each([
    ['sign-in e-mail', () => json('POST', '/api/auth/sign-in/email', { email: 'a\u0000b@example.com', password: 'x' })],
    ['sign-up name', () => json('POST', '/api/auth/sign-up/email', { name: 'A\u0000', email: 'nul@example.com', password: 'password1' })],
    ['sign-up e-mail, as a raw JSON escape', () => json('POST', '/api/auth/sign-up/email', '{"name":"A","email":"a\\u0000@example.com","password":"password1"}')],
    ['a lone surrogate', () => json('POST', '/api/auth/sign-in/email', '{"email":"\\ud800@example.com","password":"x"}')],
    ['an object key', () => json('POST', '/api/auth/sign-in/email', '{"email":"a@example.com","password":"x","\\u0000":1}')],
    ['admin filter query', () => json('GET', '/api/admin/users?query=a%00b', undefined, admin.headers)],
    ['checkout session id', () => json('GET', '/api/checkout/sessions/cs_%00x', undefined, user.headers)],
    ['tool image_url', () => json('POST', '/functions/v1/fal-upscaler', { image_url: 'http://example.com/a\u0000.png' }, user.headers)],
  ])('%s', async (_name, call) => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM users');
    const res = await call();
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: inputMessages.unstorable, code: 'validation', request_id: expect.any(String) });
    expect(await t.db.query('SELECT count(*)::int AS n FROM users')).toEqual(before);
  });

  it('a number JSON makes Infinity (1e309) and nesting deeper than any request are refused', async () => {
    const big = await json('POST', '/functions/v1/fal-upscaler', '{"image_url":"x","scale":1e309}', user.headers);
    expect(big.statusCode).toBe(400);
    expect(big.json().error).toBe(inputMessages.numberOutOfRange);
    const deep = await json('POST', '/api/auth/sign-in/email', `{"email":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(deep.statusCode).toBe(400);
  });
});

describe('a bad escape in the address', () => {
  it.each([
    ['GET', '/api/jobs/%ED%A0%80'],
    ['POST', '/api/jobs/%ED%A0%80/retry'],
    ['GET', '/api/library/%ZZ'],
    ['GET', '/%E0%A4%A'],
  ] as const)('%s %s is our 400, with the request id and without the address echoed', async (method, url) => {
    const res = await t.app.inject({ method, url, headers: user.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: inputMessages.malformedUrl, code: 'bad_request', request_id: expect.any(String) });
    expect(res.headers['x-request-id']).toBe(res.json().request_id);
    expect(res.body).not.toContain('%');
  });
});

describe('names', () => {
  const signUp = (name: string, email: string) => json('POST', '/api/auth/sign-up/email', { name, email, password: 'password1' });
  it('a 900,000-character name is refused with the product words', async () => {
    const res = await signUp('x'.repeat(900_000), 'long@example.com');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(registrationMessages.nameTooLong);
  });
  it('a name of only zero-width or blank characters is no name', async () => {
    for (const name of ['\u200b\u200b\u200b', ' \u2060 ', '\u202e']) {
      const res = await signUp(name, `zw${name.length}@example.com`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(registrationMessages.nameRequired);
    }
    expect((await signUp('Zoë 王', 'zoe@example.com')).statusCode).toBe(200);
  });
});

describe('one validation: what the API takes, the provider can run', () => {
  it('restore upscaling 2.0000001 is refused up front and nothing is charged', async () => {
    const res = await json('POST', '/functions/v1/fal-image-restore', { image_url: 'x', upscaling: 2.0000001 }, user.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('Upscaling must be between 1 and 4 in steps of 0.5');
    expect(await t.db.query('SELECT 1 FROM tool_jobs WHERE user_id = $1', [user.id])).toHaveLength(0);
    const [{ energy_balance }] = await t.db.query<{ energy_balance: number }>('SELECT energy_balance FROM user_profiles WHERE id = $1', [user.id]);
    expect(energy_balance).toBe(20);
  });
});

describe('download names', () => {
  it.each([
    ['report.html', 'png', 'report.png'],
    ['\u202egnp.exe', 'png', 'gnp.png'],
    ['../../etc/passwd', 'png', 'passwd.png'],
    ['C:\\Users\\me\\photo.JPG', 'jpg', 'photo.JPG'],
    ['photo.jpeg', 'jpg', 'photo.jpeg'],
    ['clip', 'mp4', 'clip.mp4'],
    ['...', 'png', 'download.png'],
    ['a\u200bb<c>.png', 'png', 'ab_c_.png'],
    [undefined, 'webp', 'download.webp'],
  ])('%j as %s downloads as %j', (name, ext, expected) => {
    expect(safeDownloadName(name, ext)).toBe(expected);
  });

  it('an upload named report.html holding a PNG downloads as report.png; a right-to-left override is gone', async () => {
    for (const [filename, expected] of [
      ['report.html', 'report.png'],
      ['\u202egnp.exe', 'gnp.png'],
    ] as const) {
      const item = (await upload(t, user, { filename, contentType: 'image/png', body: await png() })).json();
      const link = await t.app.inject({ url: `/api/library/${item.id}/download`, headers: user.headers });
      expect(link.statusCode).toBe(302);
      const file = await t.app.inject({ url: link.headers.location as string });
      expect(file.statusCode).toBe(200);
      const disposition = String(file.headers['content-disposition']);
      expect(disposition).toContain(`filename="${expected}"`);
      expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(expected)}`);
      expect(disposition).not.toMatch(/%E2%80%AE|\u202e/i);
      // The stored name keeps what the user called it, minus the invisible override.
      const stored = (await t.app.inject({ url: `/api/library/${item.id}`, headers: user.headers })).json();
      expect(stored.original_name).not.toContain('\u202e');
    }
  });
});
