import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryCountsSchema, libraryItemSchema, libraryPageSchema } from '../src/server/features/library/library.schema.js';
import type { LibraryItem } from '../src/server/features/library/library-store.js';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { makeVideo, png, storedFiles, tempDir, tmpLeftovers, upload, webp } from './library.fixtures.js';

/** The library API: pages, counts, links, download, delete, retry, and A4 (owner scoping). */
const dataDir = tempDir('pr-library-');
let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let video: Buffer;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir });
  alice = await registerUser(t);
  bob = await registerUser(t);
  video = await makeVideo(path.join(dataDir, 'fixture.mp4'), { seconds: 2 });
});

afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function uploadPng(user: TestUser, name = 'photo.png', w = 64, h = 48): Promise<LibraryItem> {
  const res = await upload(t, user, { filename: name, contentType: 'image/png', body: await png(w, h) });
  expect(res.statusCode, res.body).toBe(201);
  return libraryItemSchema.parse(res.json()) as LibraryItem;
}

const get = (user: TestUser | null, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(user ? user.headers : {}), ...headers } });

describe('upload and read back', () => {
  it('stores under our key with a thumbnail and signed links', async () => {
    const item = await uploadPng(alice, 'Holiday photo.png', 640, 360);
    expect(item).toMatchObject({
      user_id: alice.id,
      original_name: 'Holiday photo.png',
      content_type: 'image/png',
      kind: 'image',
      is_generated: false,
      status: 'ready',
      width: 640,
      height: 360,
      job_id: null,
      generation_type: null,
      duration_seconds: null,
    });
    expect(item.storage_path).toMatch(new RegExp(`^${alice.id}/[0-9a-f-]{36}\\.png$`));
    expect(item.filename).toBe(item.storage_path.split('/')[1]);
    expect(item.file_size).toBeGreaterThan(0);

    const file = await get(null, item.url!);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toBe('inline');
    expect(file.headers['cache-control']).toMatch(/^private/);
    expect(file.rawPayload.length).toBe(item.file_size);

    const thumb = await get(null, item.thumbnail_url!);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(480);
  });

  it('says until when its signed links work (url_expires_at), and they do work until then', async () => {
    const before = Date.now();
    const item = await uploadPng(alice, 'Expiry.png', 32, 32);
    const ttlMs = t.ctx.config.SIGNED_URL_TTL_SECONDS * 1000;
    const expiresAt = Date.parse(item.url_expires_at!);
    expect(expiresAt).toBeGreaterThanOrEqual(before - 1000 + ttlMs);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + ttlMs);
    // Our local links carry their own expiry: never before the one announced.
    for (const link of [item.url!, item.thumbnail_url!, item.download_url!]) {
      expect(Number(new URL(link, 'http://x').searchParams.get('exp')) * 1000).toBeGreaterThanOrEqual(expiresAt);
    }
  });

  it('GET /api/library/:id returns the item; download redirects to an attachment under the original name', async () => {
    const item = await uploadPng(alice, 'résumé scan.png');
    const one = await get(alice, `/api/library/${item.id}`);
    expect(one.statusCode).toBe(200);
    expect(libraryItemSchema.parse(one.json()).id).toBe(item.id);

    const dl = await get(alice, `/api/library/${item.id}/download`);
    expect(dl.statusCode).toBe(302);
    const file = await get(null, dl.headers.location as string);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="r_sum_ scan.png"; filename*=UTF-8''r%C3%A9sum%C3%A9%20scan.png`);
    // The same link is on the item.
    expect((await get(null, item.download_url!)).headers['content-disposition']).toMatch(/^attachment/);
  });

  it('videos get a poster, duration and size', async () => {
    const res = await upload(t, alice, { filename: 'clip.mp4', contentType: 'video/mp4', body: video });
    expect(res.statusCode, res.body).toBe(201);
    const item = libraryItemSchema.parse(res.json());
    expect(item).toMatchObject({ kind: 'video', content_type: 'video/mp4', width: 320, height: 240, status: 'ready' });
    expect(item.duration_seconds).toBeCloseTo(2, 0);
    expect(item.file_size).toBe(video.length);
    const poster = await get(null, item.thumbnail_url!);
    expect(poster.headers['content-type']).toBe('image/webp');
    expect((await sharp(poster.rawPayload).metadata()).width).toBe(320);
  });

  it('Range requests return 206 with exactly the asked bytes (videos seek)', async () => {
    const res = await upload(t, alice, { filename: 'seek.mp4', contentType: 'video/mp4', body: video });
    const item = libraryItemSchema.parse(res.json());
    const part = await get(null, item.url!, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['accept-ranges']).toBe('bytes');
    expect(part.headers['content-range']).toBe(`bytes 100-199/${video.length}`);
    expect(part.headers['content-length']).toBe('100');
    expect(part.rawPayload.equals(video.subarray(100, 200))).toBe(true);

    const suffix = await get(null, item.url!, { range: 'bytes=-10' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.rawPayload.equals(video.subarray(video.length - 10))).toBe(true);

    const open = await get(null, item.url!, { range: `bytes=${video.length - 5}-` });
    expect(open.rawPayload.equals(video.subarray(video.length - 5))).toBe(true);

    const past = await get(null, item.url!, { range: `bytes=${video.length + 10}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${video.length}`);

    const whole = await get(null, item.url!);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(video)).toBe(true);
  });
});

describe('gallery pages', () => {
  let carol: TestUser;
  const ids: string[] = [];

  beforeAll(async () => {
    carol = await registerUser(t);
    for (let i = 0; i < 5; i++) ids.push((await uploadPng(carol, `p${i}.png`)).id);
    const v = await upload(t, carol, { filename: 'v.mp4', contentType: 'video/mp4', body: video });
    ids.push(v.json().id);
    const w = await upload(t, carol, { filename: 'w.webp', contentType: 'image/webp', body: await webp() });
    ids.push(w.json().id);
  });

  it('newest first, keyset pages with no gaps or repeats', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(carol, `/api/library?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const page = libraryPageSchema.parse(res.json());
      seen.push(...page.items.map((i) => i.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it('kind=image and kind=video split the library', async () => {
    const images = libraryPageSchema.parse((await get(carol, '/api/library?kind=image&limit=100')).json());
    const videos = libraryPageSchema.parse((await get(carol, '/api/library?kind=video')).json());
    expect(images.items.map((i) => i.kind)).toEqual(Array(6).fill('image'));
    expect(videos.items).toHaveLength(1);
    expect(videos.items[0]!.kind).toBe('video');
    expect(videos.next_cursor).toBeNull();
    const page2 = libraryPageSchema.parse((await get(carol, `/api/library?kind=image&limit=4`)).json());
    const rest = libraryPageSchema.parse((await get(carol, `/api/library?kind=image&limit=4&cursor=${page2.next_cursor}`)).json());
    expect([...page2.items, ...rest.items].map((i) => i.id)).toEqual(images.items.map((i) => i.id));
  });

  it('counts per gallery group', async () => {
    const { library } = t.ctx.services;
    const tmp = path.join(dataDir, 'gen.png');
    fs.writeFileSync(tmp, await png(32, 32));
    await library.results.saveGeneratedItem({ userId: carol.id, jobId: crypto.randomUUID(), kind: 'image', localPath: tmp, generationType: 'fal-upscaler', prompt: 'x' });
    const res = await get(carol, '/api/library/counts');
    expect(libraryCountsSchema.parse(res.json())).toMatchObject({
      images: { generated: 1, uploaded: 6, total: 7 },
      videos: { generated: 0, uploaded: 1, total: 1 },
    });
  });

  it('generated=true|false pages one gallery group', async () => {
    const generated = libraryPageSchema.parse((await get(carol, '/api/library?kind=image&generated=true')).json());
    const uploaded = libraryPageSchema.parse((await get(carol, '/api/library?kind=image&generated=false&limit=100')).json());
    expect(generated.items.length).toBeGreaterThanOrEqual(1);
    expect(generated.items.every((i) => i.is_generated)).toBe(true);
    expect(uploaded.items.every((i) => !i.is_generated)).toBe(true);
    expect(uploaded.items).toHaveLength(6);
    expect((await get(carol, '/api/library?generated=maybe')).statusCode).toBe(400);
  });

  it('a file keeps the same link for a while (browsers can cache thumbnails)', async () => {
    const a = (await get(carol, `/api/library/${ids[0]}`)).json();
    const b = (await get(carol, `/api/library/${ids[0]}`)).json();
    expect(b.thumbnail_url).toBe(a.thumbnail_url);
    expect(b.url).toBe(a.url);
  });

  it('a bad cursor is a 400, limits are bounded', async () => {
    expect((await get(carol, '/api/library?cursor=bm9wZQ')).statusCode).toBe(400);
    expect((await get(carol, '/api/library?limit=1000')).statusCode).toBe(400);
    expect((await get(carol, '/api/library?kind=audio')).statusCode).toBe(400);
  });
});

describe('gallery counts stay exact', () => {
  it('match a full GROUP BY after inserts, bulk inserts, moves between groups and deletes', async () => {
    const hank = await registerUser(t);
    const truth = async () =>
      (
        await t.db.query<{ kind: string; is_generated: boolean; n: number }>(
          `SELECT kind, is_generated, count(*)::int AS n FROM uploaded_images WHERE user_id = $1 GROUP BY 1, 2`,
          [hank.id],
        )
      ).reduce(
        (c, r) => {
          const g = r.kind === 'video' ? c.videos : c.images;
          g[r.is_generated ? 'generated' : 'uploaded'] += r.n;
          g.total += r.n;
          return c;
        },
        { images: { generated: 0, uploaded: 0, total: 0 }, videos: { generated: 0, uploaded: 0, total: 0 } },
      );
    const check = async () => expect(await t.ctx.services.library.queries.counts(hank.id)).toMatchObject(await truth());
    await check();
    await uploadPng(hank);
    await t.db.query(
      `INSERT INTO uploaded_images (user_id, filename, original_name, content_type, storage_path, is_generated)
       SELECT $1::uuid, 'b' || i, 'b' || i, CASE WHEN i % 2 = 0 THEN 'video/mp4' ELSE 'image/png' END, $1::text || '/bulk-' || i, i % 3 = 0
         FROM generate_series(1, 25) i`,
      [hank.id],
    );
    await check();
    // Moves between groups (kind via content_type, generated flag), and an update that moves nothing.
    await t.db.query(`UPDATE uploaded_images SET content_type = 'video/webm' WHERE user_id = $1 AND storage_path LIKE '%bulk-1_'`, [hank.id]);
    await t.db.query(`UPDATE uploaded_images SET is_generated = NOT is_generated WHERE user_id = $1 AND storage_path LIKE '%bulk-2_'`, [hank.id]);
    await t.db.query(`UPDATE uploaded_images SET status = 'ready' WHERE user_id = $1`, [hank.id]);
    await check();
    await t.db.query(`DELETE FROM uploaded_images WHERE user_id = $1 AND storage_path LIKE '%bulk-%' AND is_generated`, [hank.id]);
    await check();
    expect((await t.ctx.services.library.queries.counts(hank.id)).images.total).toBeGreaterThan(0);
  });
});

describe('delete', () => {
  it('removes the row, the file and the thumbnail; a second delete is a 404 and changes nothing', async () => {
    const dave = await registerUser(t);
    const item = await uploadPng(dave);
    // Other bytes (the same bytes would share one stored file).
    const keep = await uploadPng(dave, 'keep.png', 65, 48);
    expect(storedFiles(dataDir, dave.id)).toHaveLength(4);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/library/${item.id}`, headers: dave.headers });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ id: item.id, deleted: true });
    expect(storedFiles(dataDir, dave.id).sort()).toEqual(
      [keep.storage_path, keep.thumbnail_url && (await t.db.query<{ thumbnail_path: string }>('SELECT thumbnail_path FROM uploaded_images WHERE id = $1', [keep.id]))[0]!.thumbnail_path]
        .map((k) => k!.slice(dave.id.length + 1))
        .sort(),
    );
    expect((await get(dave, `/api/library/${item.id}`)).statusCode).toBe(404);
    expect((await get(null, item.url!)).statusCode).toBe(404);
    expect((await get(null, item.thumbnail_url!)).statusCode).toBe(404);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/library/${item.id}`, headers: dave.headers });
    expect(again.statusCode).toBe(404);
    expect((await get(dave, `/api/library/${keep.id}`)).statusCode).toBe(200);
  });
});

describe('A4: another user and anonymous callers', () => {
  let item: LibraryItem;
  let bobItem: LibraryItem;
  let rowsBefore: unknown[];

  beforeAll(async () => {
    item = await uploadPng(alice, 'alice-private.png');
    bobItem = await uploadPng(bob, 'bob.png');
    rowsBefore = await t.db.query('SELECT * FROM uploaded_images ORDER BY id');
  });

  it('bob cannot list, read, download, delete or retry alice’s item (404), and nothing changes', async () => {
    const list = libraryPageSchema.parse((await get(bob, '/api/library?limit=100')).json());
    expect(list.items.map((i) => i.user_id)).toEqual(list.items.map(() => bob.id));
    expect(list.items.some((i) => i.id === item.id)).toBe(false);
    expect((await get(bob, `/api/library/${item.id}`)).statusCode).toBe(404);
    expect((await get(bob, `/api/library/${item.id}/download`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/library/${item.id}`, headers: bob.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/library/${item.id}/retry`, headers: bob.headers })).statusCode).toBe(404);
    const counts = libraryCountsSchema.parse((await get(bob, '/api/library/counts')).json());
    expect(counts.images.total).toBe(1);
    expect(await t.db.query('SELECT * FROM uploaded_images ORDER BY id')).toEqual(rowsBefore);
    expect((await get(alice, item.url!)).statusCode).toBe(200);
  });

  it("alice's link pattern applied to bob's object is refused (403)", async () => {
    const forged = item.url!.replace(item.storage_path, bobItem.storage_path);
    expect(forged).not.toBe(item.url);
    const res = await get(null, forged);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'This link has expired or is not valid', code: 'forbidden', request_id: expect.any(String) });
  });

  it('bob cannot have a tool read alice’s file by id or by her link', async () => {
    const { library } = t.ctx.services;
    const dir = tempDir('pr-read-');
    await expect(library.sources.readToLocalFile(bob.id, item.id, dir)).rejects.toMatchObject({ code: 'not_found' });
    await expect(library.sources.readToLocalFile(bob.id, `http://localhost:3000${item.url}`, dir)).rejects.toMatchObject({ code: 'not_found' });
    await expect(library.sources.readToLocalFile(bob.id, item.url!, dir)).rejects.toMatchObject({ code: 'not_found' });
    expect(fs.readdirSync(dir)).toEqual([]);
    // Alice can, both ways, without any network.
    const byId = await library.sources.readToLocalFile(alice.id, item.id, dir);
    const byUrl = await library.sources.readToLocalFile(alice.id, item.url!, dir);
    expect(byId).toMatchObject({ contentType: 'image/png', kind: 'image', size: item.file_size });
    expect(fs.readFileSync(byUrl.path).equals(fs.readFileSync(byId.path))).toBe(true);
  });

  it.each([
    ['GET', '/api/library'],
    ['GET', '/api/library/counts'],
    ['GET', '/api/library/ID'],
    ['GET', '/api/library/ID/download'],
    ['DELETE', '/api/library/ID'],
    ['POST', '/api/library/ID/retry'],
    ['POST', '/api/library/import-url'],
    ['POST', '/api/library/uploads'],
  ] as const)('anonymous %s %s -> 401 User not authenticated', async (method, url) => {
    const res = await t.app.inject({ method, url: url.replace('ID', item.id), ...(method === 'POST' ? { payload: { url: 'http://example.com/a.png' } } : {}) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'User not authenticated', code: 'unauthenticated' });
  });

  it('ids that are not uuids are 404, not 500', async () => {
    for (const id of ['x', "1' OR '1'='1", '../../etc']) {
      expect((await get(alice, `/api/library/${encodeURIComponent(id)}`)).statusCode).toBe(404);
    }
  });
});

describe('generated items, pending videos, retry', () => {
  it('saveGeneratedItem saves exactly once per job, even concurrently', async () => {
    const erin = await registerUser(t);
    const { library } = t.ctx.services;
    const tmp = path.join(dataDir, 'gen-once.png');
    fs.writeFileSync(tmp, await png(100, 80));
    const jobId = crypto.randomUUID();
    const input = { userId: erin.id, jobId, kind: 'image' as const, localPath: tmp, generationType: 'fal-image-editor', prompt: 'make the sky a deep purple with glowing stars and a huge moon over the sea' };
    const results = await Promise.all([library.results.saveGeneratedItem(input), library.results.saveGeneratedItem(input), library.results.saveGeneratedItem(input)]);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    const again = await library.results.saveGeneratedItem(input);
    expect(again.id).toBe(results[0]!.id);
    expect(again).toMatchObject({
      is_generated: true,
      generation_type: 'fal-image-editor',
      job_id: jobId,
      original_name: 'fal-image-editor: make the sky a deep purple with glowing stars and',
      width: 100,
      height: 80,
    });
    const rows = await t.db.query('SELECT id FROM uploaded_images WHERE job_id = $1', [jobId]);
    expect(rows).toHaveLength(1);
    expect(storedFiles(dataDir, erin.id)).toHaveLength(2); // one file + one thumbnail, the surplus removed
  });

  it('an attempt that died between storing and recording leaves nothing behind once the job is saved again', async () => {
    const gail = await registerUser(t);
    const { library } = t.ctx.services;
    const tmp = path.join(dataDir, 'gen-died.png');
    fs.writeFileSync(tmp, await png(60, 40));
    const input = { userId: gail.id, jobId: crypto.randomUUID(), kind: 'image' as const, localPath: tmp, generationType: 'fal-upscaler' };

    // The first attempt stalls while writing the thumbnail, its file already stored: as far as the
    // job can tell, its worker died there. The next attempt saves the job.
    const put = library.storage.put.bind(library.storage);
    let stalled: (() => void) | undefined;
    library.storage.put = async (key, body, opts) => {
      if (!stalled && opts?.contentType === 'image/webp') return new Promise<never>((_, reject) => (stalled = () => reject(new Error('worker gone'))));
      return put(key, body, opts);
    };
    let first: Promise<unknown>;
    try {
      first = library.results.saveGeneratedItem(input).catch((err: unknown) => err);
      await expect.poll(() => stalled !== undefined).toBe(true);
      expect(storedFiles(dataDir, gail.id)).toHaveLength(1);
    } finally {
      library.storage.put = put;
    }
    const saved = await library.results.saveGeneratedItem(input);
    const [row] = await t.db.query<{ storage_path: string; thumbnail_path: string }>('SELECT storage_path, thumbnail_path FROM uploaded_images WHERE id = $1', [saved.id]);
    const recorded = [row!.storage_path, row!.thumbnail_path].sort();
    const files = () => storedFiles(dataDir, gail.id).map((f) => `${gail.id}/${f}`).sort();
    expect(files()).toEqual(recorded);

    // Even when the stalled attempt wakes up and fails, it deletes nothing the job recorded.
    stalled!();
    expect(await first).toBeInstanceOf(Error);
    expect(files()).toEqual(recorded);
  });

  it('a pending video has no url until completed; retry needs a pending/failed item', async () => {
    const fred = await registerUser(t);
    const { library } = t.ctx.services;
    const jobId = crypto.randomUUID();
    const pending = await library.results.createPendingItem({ userId: fred.id, jobId, generationType: 'fal-image-to-video', prompt: 'a cat surfing' });
    expect(pending).toMatchObject({ status: 'pending', kind: 'video', content_type: 'video/mp4', original_image_url: null, duration_seconds: 4 });
    expect(pending.storage_path).toBe(`${fred.id}/pending/${jobId}.mp4`);
    expect(pending.url).toBeUndefined();
    expect(pending.download_url).toBeUndefined();
    expect((await get(fred, `/api/library/${pending.id}/download`)).statusCode).toBe(409);

    // A retry runs the item's run again: one the tool runs do not know is refused; a ready item -> 409 'Nothing to retry'.
    {
      await library.results.failPendingItem({ userId: fred.id, jobId, error: 'provider timed out' });
      expect((await library.queries.get(fred.id, pending.id)).status).toBe('failed');
      const retried = await t.app.inject({ method: 'POST', url: `/api/library/${pending.id}/retry`, headers: fred.headers });
      expect(retried.statusCode).toBe(404);
      expect(retried.json()).toMatchObject({ error: 'Run not found', code: 'not_found' });
      expect((await library.queries.get(fred.id, pending.id)).status).toBe('pending');

      const tmp = path.join(dataDir, 'done.mp4');
      fs.writeFileSync(tmp, video);
      const done = await library.results.completePendingItem({ userId: fred.id, jobId, localPath: tmp });
      expect(done).toMatchObject({ id: pending.id, status: 'ready', width: 320, height: 240 });
      expect(done.storage_path).not.toContain('pending/');
      expect(done.url).toBeDefined();
      expect(done.duration_seconds).toBeCloseTo(2, 0);
      // Completing twice (a retried job) stores nothing more.
      const twice = await library.results.completePendingItem({ userId: fred.id, jobId, localPath: tmp });
      expect(twice.storage_path).toBe(done.storage_path);
      expect(storedFiles(dataDir, fred.id)).toHaveLength(2);
      // saveGeneratedItem for the same job returns that item too.
      expect((await library.results.saveGeneratedItem({ userId: fred.id, jobId, kind: 'video', localPath: tmp, generationType: 'fal-image-to-video' })).id).toBe(pending.id);

      const ready = await t.app.inject({ method: 'POST', url: `/api/library/${pending.id}/retry`, headers: fred.headers });
      expect(ready.statusCode).toBe(409);
      expect(ready.json()).toMatchObject({ error: 'Nothing to retry', code: 'conflict' });
    }
  });
});

describe('scratch space', () => {
  it('the start-up sweep removes only scratch dirs left over from a crash (older than an hour)', async () => {
    const tmp = path.join(dataDir, 'tmp');
    fs.mkdirSync(path.join(tmp, 'lib-crashed'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'lib-crashed', 'upload'), 'x');
    fs.mkdirSync(path.join(tmp, 'lib-in-flight'), { recursive: true });
    const old = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(path.join(tmp, 'lib-crashed'), old, old);
    expect(await t.ctx.services.library.sweepScratch()).toBe(1);
    expect(fs.readdirSync(tmp)).toEqual(['lib-in-flight']);
    fs.rmSync(path.join(tmp, 'lib-in-flight'), { recursive: true });
  });
});

describe('nothing half-written', () => {
  it('when the metadata row cannot be saved, the stored file and thumbnail are deleted', async () => {
    const gina = await registerUser(t);
    await t.db.exec(`
      CREATE FUNCTION library_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by test'; END $$;
      CREATE TRIGGER library_test_refuse BEFORE INSERT ON uploaded_images FOR EACH ROW EXECUTE FUNCTION library_test_refuse();`);
    try {
      const res = await upload(t, gina, { filename: 'x.png', contentType: 'image/png', body: await png() });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: 'Failed to save image metadata: the database did not accept it', code: 'internal', request_id: expect.any(String) });
      const v = await upload(t, gina, { filename: 'x.mp4', contentType: 'video/mp4', body: video });
      expect(v.json().error).toBe('Failed to save video metadata: the database did not accept it');
    } finally {
      await t.db.exec('DROP TRIGGER library_test_refuse ON uploaded_images; DROP FUNCTION library_test_refuse();');
    }
    expect(storedFiles(dataDir, gina.id)).toEqual([]);
    expect(tmpLeftovers(dataDir)).toEqual([]);
  });
});
