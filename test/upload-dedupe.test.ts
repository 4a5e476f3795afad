import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { png, storedFiles, tempDir, upload } from './library.fixtures.js';

/** Uploads deduplicated per user by content hash; a shared file lives while any item points at it. */
const dataDir = tempDir('pr-dedupe-');
let t: TestApp;
let photo: Buffer;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir });
  photo = await png(80, 60, '#aa3366');
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const send = async (user: TestUser, filename: string, body: Buffer) => {
  const res = await upload(t, user, { filename, contentType: 'image/png', body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; storage_path: string; original_name: string };
};
const del = (user: TestUser, id: string) => t.app.inject({ method: 'DELETE', url: `/api/library/${id}`, headers: user.headers });
const download = (user: TestUser, id: string) => t.app.inject({ method: 'GET', url: `/api/library/${id}/download`, headers: user.headers });
const rows = async (userId: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM uploaded_images WHERE user_id = $1', [userId]))[0]!.n;

describe('upload dedupe', () => {
  it('the same bytes under the same name are the same item, stored once', async () => {
    const user = await registerUser(t);
    const a = await send(user, 'photo.png', photo);
    const b = await send(user, 'photo.png', photo);
    expect(b.id).toBe(a.id);
    expect(await rows(user.id)).toBe(1);
    // The picture and its thumbnail: one of each.
    expect(storedFiles(dataDir, user.id)).toHaveLength(2);
  });

  it('under another name: a second item on the same stored file; deleting one keeps the file for the other', async () => {
    const user = await registerUser(t);
    const a = await send(user, 'for-upscaler.png', photo);
    const b = await send(user, 'for-restore.png', photo);
    expect(b.id).not.toBe(a.id);
    expect(b.original_name).toBe('for-restore.png');
    expect(b.storage_path).toBe(a.storage_path);
    expect(storedFiles(dataDir, user.id)).toHaveLength(2);

    expect((await del(user, a.id)).statusCode).toBe(200);
    expect(storedFiles(dataDir, user.id)).toHaveLength(2);
    const stillThere = await download(user, b.id);
    expect([200, 302]).toContain(stillThere.statusCode);

    expect((await del(user, b.id)).statusCode).toBe(200);
    expect(storedFiles(dataDir, user.id)).toEqual([]);
  });

  it('different bytes are different files; other users never share', async () => {
    const user = await registerUser(t);
    const other = await registerUser(t);
    const a = await send(user, 'a.png', photo);
    const c = await send(user, 'c.png', await png(80, 60, '#00ff00'));
    expect(c.storage_path).not.toBe(a.storage_path);
    const theirs = await send(other, 'a.png', photo);
    expect(theirs.id).not.toBe(a.id);
    expect(theirs.storage_path.startsWith(`${other.id}/`)).toBe(true);
    expect(storedFiles(dataDir, other.id)).toHaveLength(2);
  });

  it('concurrent deletes of two items sharing a file leave no item and no file behind', async () => {
    const user = await registerUser(t);
    const a = await send(user, 'one.png', photo);
    const b = await send(user, 'two.png', photo);
    const [ra, rb] = await Promise.all([del(user, a.id), del(user, b.id)]);
    expect([ra.statusCode, rb.statusCode]).toEqual([200, 200]);
    expect(await rows(user.id)).toBe(0);
    expect(storedFiles(dataDir, user.id)).toEqual([]);
  });
});
