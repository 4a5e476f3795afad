import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type Config } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/open-db.js';
import { energyTotals, migrateTo, migrateToCommand, parseMigrateToArgs } from '../src/server/ops/migrate-to.js';
import { createStorage } from '../src/server/providers/storage/create-storage.js';
import { dropSchemas, fingerprint, schemaUrl, seedInstall } from './helpers/install-fixture.js';

// The move needs a Postgres server: it runs in the suite's Postgres pass.
const base = process.env.DATABASE_URL;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pr-migrate-to-'));
const tag = randomBytes(4).toString('hex');
const schema = `mv_${tag}`;
const BUCKET = 'pixelrush-moved';
let s3: InstanceType<typeof S3rver>;
let endpoint = '';

beforeAll(async () => {
  if (!base) return;
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(tmp, 's3rver'), configureBuckets: [{ name: BUCKET, configs: [] }, { name: 'pixelrush-busy', configs: [] }] });
  endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
});
afterAll(async () => {
  await s3?.close();
  if (base) await dropSchemas(base, schema, `mv_other_${tag}`);
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
    const moved = configFor({ DATABASE_URL: url, DATA_DIR: path.join(tmp, 'unused'), S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
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
