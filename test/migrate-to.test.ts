import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type Config } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/open-db.js';
import { energyTotals, migrateTo, migrateToCommand, parseMigrateToArgs } from '../src/server/ops/migrate-to.js';
import { createStorage } from '../src/server/providers/storage/create-storage.js';
import { dropSchemas, fingerprint, schemaUrl, seedInstall } from './helpers/install-fixture.js';
import { createServices, type AppContext } from '../src/server/app-context.js';
import { buildApp } from '../src/server/http/app.js';
import { startToolRuntime } from '../src/server/jobs/tool-runtime.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { registerUser, type TestApp } from './helpers/test-app.js';

// The move needs a Postgres server: it runs in the suite's Postgres pass.
const base = process.env.DATABASE_URL;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pr-migrate-to-'));
const tag = randomBytes(4).toString('hex');
const schema = `mv_${tag}`;
const BUCKET = 'pixelrush-moved';
const GENERATED = 'pixelrush-generated';
let s3: InstanceType<typeof S3rver>;
let endpoint = '';

beforeAll(async () => {
  if (!base) return;
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(tmp, 's3rver'), configureBuckets: [{ name: BUCKET, configs: [] }, { name: 'pixelrush-busy', configs: [] }, { name: GENERATED, configs: [] }] });
  endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
});
afterAll(async () => {
  await s3?.close();
  if (base) await dropSchemas(base, schema, `mv_other_${tag}`, `mv_local_${tag}`, `mv_gen_${tag}`);
  fs.rmSync(tmp, { recursive: true, force: true });
});

const configFor = (env: Record<string, string>): Config => parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env });
const s3Flags = (bucket: string) => ['--s3-bucket', bucket, '--s3-endpoint', endpoint, '--s3-access-key-id', 'S3RVER', '--s3-secret-access-key', 'S3RVER'];

describe.skipIf(!base)('migrate-to: embedded install -> Postgres server + S3', () => {
  it('moves rows, ENERGY and files, verifies them, prints the new settings, and refuses a target that is not empty', async () => {
    const source = configFor({ DATA_DIR: path.join(tmp, 'embedded') });
    const db = await openDatabase(source);
    await seedInstall(source, db, 4);
    const before = { ...(await fingerprint(db, createStorage(source))), energy: await energyTotals(db) };
    await db.close();
    expect(Object.keys(before.files)).toHaveLength(16);

    const url = schemaUrl(base!, schema);
    const printed: string[] = [];
    await migrateToCommand(source, ['--database-url', url, ...s3Flags(BUCKET)], (l) => printed.push(l));
    const out = printed.join('\n');
    expect(out).toContain(`DATABASE_URL=${url}`);
    expect(out).toContain(`S3_BUCKET=${BUCKET}`);
    expect(out).toContain(`S3_ENDPOINT=${endpoint}`);
    expect(out).toMatch(/files: 16 \(\d+ bytes\) copied, sha256 equal/);
    expect(out).toContain(`balances ${before.energy.balances} = ledger ${before.energy.ledger}`);

    // Checked independently of the command's own verification.
    const moved = configFor({ APP_SECRET: source.APP_SECRET, DATABASE_URL: url, DATA_DIR: path.join(tmp, 'unused'), S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
    const target = await openDatabase(moved);
    const after = { ...(await fingerprint(target, createStorage(moved))), energy: await energyTotals(target) };
    expect(target.kind).toBe('postgres');
    await target.close();
    expect(after.rows).toEqual(before.rows);
    expect(after.content).toEqual(before.content);
    expect(after.files).toEqual(before.files);
    expect(after.energy).toEqual(before.energy);

    // Not empty any more: a second move is refused before anything is written.
    await expect(migrateTo(source, parseMigrateToArgs(['--database-url', url, ...s3Flags('pixelrush-busy')]), () => {})).rejects.toThrow(/target database is not empty/);
    // An empty database but a bucket with objects in it: refused too.
    await expect(
      migrateTo(source, parseMigrateToArgs(['--database-url', schemaUrl(base!, `mv_other_${tag}`), ...s3Flags(BUCKET)]), () => {}),
    ).rejects.toThrow(/bucket pixelrush-moved is not empty/);
    expect(() => parseMigrateToArgs(['--s3-bucket', 'x'])).toThrow(/--database-url/);
    expect(() => parseMigrateToArgs(['--database-url', url, '--s3-bucket', 'x', '--s3-access-key-id', 'a'])).toThrow(/both/);
  }, 300_000);
});

describe.skipIf(!base)('migrate-to without a bucket: the files stay in the data directory', () => {
  it('moves the database into an empty target although the (same) storage holds files, and names where the secret is', async () => {
    const source = configFor({ DATA_DIR: path.join(tmp, 'stays') });
    const db = await openDatabase(source);
    await seedInstall(source, db, 2);
    const before = { ...(await fingerprint(db, createStorage(source))), energy: await energyTotals(db) };
    await db.close();
    expect(Object.keys(before.files)).toHaveLength(8);

    const url = schemaUrl(base!, `mv_local_${tag}`);
    const printed: string[] = [];
    await migrateToCommand(source, ['--database-url', url], (l) => printed.push(l));
    const out = printed.join('\n');
    expect(out).toContain(`DATA_DIR=${source.dataDir}`);
    // The embedded install made its own secret: every node needs it, but it is never printed.
    expect(out).toContain(`APP_SECRET=<the contents of ${path.join(source.dataDir, 'app-secret')}, on every node>`);
    expect(out).not.toContain(source.APP_SECRET);

    const moved = configFor({ APP_SECRET: source.APP_SECRET, DATABASE_URL: url, DATA_DIR: source.dataDir });
    const target = await openDatabase(moved);
    const after = { ...(await fingerprint(target, createStorage(moved))), energy: await energyTotals(target) };
    await target.close();
    expect(after.rows).toEqual(before.rows);
    expect(after.content).toEqual(before.content);
    expect(after.files).toEqual(before.files);
    expect(after.energy).toEqual(before.energy);
  }, 300_000);
});

/** The app on a config and database, with tool runs when a provider is given. */
async function appOn(config: Config, provider?: ReturnType<typeof createFakeAiProvider>) {
  const db = await openDatabase(config);
  const log = pino({ level: 'silent' });
  const services = createServices(config, db, log, provider ? { ai: { providerFor: () => provider, close: async () => {} } } : {});
  const ctx: AppContext = { config, db, log, services };
  const runtime = provider ? await startToolRuntime(ctx, { runWorkers: true, concurrency: 1, perUserConcurrency: 1, retryDelaySeconds: 1, heartbeatSeconds: 10, sweepIntervalMs: 3_600_000 }) : undefined;
  const app = await buildApp(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const t: TestApp = { ctx, app, db, runtime, close: async () => {} };
  return {
    t,
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: async () => {
      await app.close();
      await runtime?.stop();
      await db.close();
    },
  };
}

/**
 * Every string under a key ending in `url` in an answer (links to follow), with where it was. A run's
 * `input` is left out: it is the request as its caller sent it (an id, or a link the caller chose).
 */
function linksIn(value: unknown, where: string, out: Array<{ where: string; url: string }> = []) {
  if (where.endsWith('.input')) return out;
  if (Array.isArray(value)) value.forEach((v, i) => linksIn(v, `${where}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && /url$/i.test(k) && v) out.push({ where: `${where}.${k}`, url: v });
      else linksIn(v, `${where}.${k}`, out);
    }
  }
  return out;
}

describe.skipIf(!base)('migrate-to: the links of generated images', () => {
  it('every URL the API answers after a move to S3 answers 200 (results, thumbnails, downloads and the originals they were made from)', async () => {
    const source = configFor({ DATA_DIR: path.join(tmp, 'generated') });
    const provider = createFakeAiProvider();
    const before = await appOn(source, provider);
    let user: Awaited<ReturnType<typeof registerUser>>;
    try {
      user = await registerUser(before.t, { energy: 50 });
      const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 200, g: 90, b: 10 } } }).png().toBuffer();
      const item = await before.t.ctx.services.library.uploads.upload(user.id, { stream: Readable.from([png]), fileName: 'in.png', declaredType: 'image/png', kindHint: 'image' });
      // A run on the item's id and one on our own (signed, local) link to it: both store that link as the original.
      for (const image_url of [item.id, item.url!]) {
        const run = await before.t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: user.headers, payload: { image_url, scale: 2 } });
        expect(run.statusCode, run.body).toBe(200);
      }
      const [{ n }] = await before.t.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM uploaded_images WHERE is_generated AND original_image_url LIKE '/api/files/%'",
      );
      expect(n).toBe(2);
    } finally {
      await before.close();
    }

    const url = schemaUrl(base!, `mv_gen_${tag}`);
    const printed: string[] = [];
    await migrateToCommand(source, ['--database-url', url, ...s3Flags(GENERATED)], (l) => printed.push(l));
    expect(printed.join('\n')).toContain('stored links to own files: 2, each answered with a fresh link from the new storage');
    const moved = configFor({ APP_SECRET: source.APP_SECRET, DATABASE_URL: url, DATA_DIR: path.join(tmp, 'gen-unused'), S3_BUCKET: GENERATED, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
    const after = await appOn(moved);
    try {
      const get = async (path: string) => {
        const res = await after.t.app.inject({ url: path, headers: user.headers });
        expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
        return res.json() as Record<string, unknown>;
      };
      const links = linksIn(await get('/api/library?limit=50'), 'library');
      const page = (await get('/api/jobs')) as { items: Array<{ id: string; library_item_id: string }> };
      expect(page.items).toHaveLength(2);
      links.push(...linksIn(page, 'jobs'));
      for (const job of page.items) {
        links.push(...linksIn(await get(`/api/jobs/${job.id}`), `job ${job.id}`));
        links.push(...linksIn(await get(`/api/jobs/${job.id}/result`), `result of ${job.id}`));
        links.push(...linksIn(await get(`/api/library/${job.library_item_id}`), `item ${job.library_item_id}`));
      }
      // 3 items (url, download, thumbnail) + 2 originals; per run: the job's original, the answer's two and the item's four.
      expect(links.length).toBeGreaterThanOrEqual(3 * 3 + 2 + 2 * (1 + 2 + 4));
      const broken: string[] = [];
      for (const { where, url: link } of links) {
        const res = await fetch(new URL(link, after.base));
        await res.body?.cancel();
        if (res.status !== 200) broken.push(`${where} ${res.status} ${link.slice(0, 80)}`);
      }
      expect(broken).toEqual([]);
      // Every link is the bucket's own: nothing points at the app's local file route any more.
      expect(links.filter((l) => l.url.startsWith('/api/files/'))).toEqual([]);
    } finally {
      await after.close();
    }
  }, 300_000);
});
