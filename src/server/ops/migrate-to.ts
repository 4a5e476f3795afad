import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import type { Db, Queryable } from '../db/db.js';
import { openDatabase } from '../db/open-db.js';
import { createStorage } from '../providers/storage/create-storage.js';
import type { StorageDriver } from '../providers/storage/storage.js';
import { referencedFiles, sha256Of, writeBackup } from './backup-archive.js';
import { listTables, rowCounts, schemaIsEmpty } from './db-dump.js';
import { restoreFile } from './restore.js';
import { storageIsEmpty } from './storage-empty.js';

export class MigrateToError extends Error {}

export interface MigrateToTarget {
  databaseUrl: string;
  s3?: {
    bucket: string;
    endpoint?: string;
    region: string;
    accessKeyId?: string;
    secretAccessKey?: string;
    forcePathStyle?: boolean;
  };
}

export interface EnergyTotals {
  users: number;
  balances: number;
  ledger: number;
  /** Users whose balance is not the sum of their ledger. */
  mismatched: number;
}

export interface MigrateToReport {
  rows: Record<string, { source: number; target: number }>;
  energy: { source: EnergyTotals; target: EnergyTotals };
  files: { checked: number; bytes: number; moved: boolean };
  /** Stored links to the install's own files, each found to name the same file in the target. */
  links: number;
  settings: string[];
}

export async function energyTotals(db: Queryable): Promise<EnergyTotals> {
  const [row] = await db.query<EnergyTotals>(
    `SELECT count(*)::int AS users,
            COALESCE(sum(p.energy_balance), 0)::bigint AS balances,
            COALESCE(sum(l.s), 0)::bigint AS ledger,
            count(*) FILTER (WHERE p.energy_balance <> COALESCE(l.s, 0))::int AS mismatched
       FROM user_profiles p
       LEFT JOIN (SELECT user_id, sum(amount) AS s FROM energy_transactions GROUP BY user_id) l ON l.user_id = p.id`,
  );
  return { users: Number(row.users), balances: Number(row.balances), ledger: Number(row.ledger), mismatched: Number(row.mismatched) };
}

async function checksum(storage: StorageDriver, key: string): Promise<{ sha256: string; size: number } | null> {
  const got = await storage.get(key).catch(() => null);
  if (!got) return null;
  const { tap, digest } = sha256Of();
  let size = 0;
  for await (const chunk of got.stream.pipe(tap)) size += (chunk as Buffer).length;
  return { sha256: digest(), size };
}

/**
 * Moves a stopped embedded install (database + local files) to a Postgres
 * server and, when asked, an S3 bucket: the same archive a backup writes,
 * restored into the target, then checked table by table, ENERGY sum by
 * ENERGY sum and file by file against the source.
 */
export async function migrateTo(config: Config, target: MigrateToTarget, print: (line: string) => void): Promise<MigrateToReport> {
  if (config.DATABASE_URL) throw new MigrateToError('migrate-to moves an embedded install: unset DATABASE_URL (the source is DATA_DIR).');
  const source = await openDatabase(config);
  let targetDb: Db | undefined;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelrush-migrate-'));
  try {
    const sourceStorage = createStorage(config);
    const targetStorage = target.s3
      ? createStorage({
          ...config,
          S3_BUCKET: target.s3.bucket,
          S3_ENDPOINT: target.s3.endpoint,
          S3_REGION: target.s3.region,
          S3_ACCESS_KEY_ID: target.s3.accessKeyId,
          S3_SECRET_ACCESS_KEY: target.s3.secretAccessKey,
          S3_FORCE_PATH_STYLE: target.s3.forcePathStyle === undefined ? undefined : target.s3.forcePathStyle ? 'true' : 'false',
        })
      : sourceStorage;
    const moveFiles = targetStorage !== sourceStorage;

    targetDb = await openDatabase({ DATABASE_URL: target.databaseUrl, dataDir: config.dataDir }, { migrate: false });
    if (!(await schemaIsEmpty(targetDb))) throw new MigrateToError('The target database is not empty: migrate-to only writes into an empty database (or schema).');
    if (moveFiles && !(await storageIsEmpty(targetStorage))) throw new MigrateToError(`The target bucket ${targetStorage.bucket} is not empty.`);

    print(`Copying the embedded database${moveFiles ? ' and its files' : ''}...`);
    const archive = path.join(tmp, 'move.tar.gz');
    // A move, not a backup: sessions, links and keys stay as they are (the same install, elsewhere).
    await writeBackup(source, sourceStorage, fs.createWriteStream(archive), { files: moveFiles, scrub: false });
    // Without a bucket the files stay where they are: the target storage is the source's own.
    await restoreFile(targetDb, targetStorage, archive, { filesInPlace: !moveFiles });

    print('Verifying...');
    const tables = await listTables(source);
    const [sourceRows, targetRows] = [await rowCounts(source, tables), await rowCounts(targetDb, tables)];
    const rows: MigrateToReport['rows'] = {};
    for (const t of tables) {
      rows[t.name] = { source: sourceRows[t.name], target: targetRows[t.name] };
      if (sourceRows[t.name] !== targetRows[t.name]) {
        throw new MigrateToError(`Row count of ${t.name} differs: source ${sourceRows[t.name]}, target ${targetRows[t.name]}.`);
      }
    }
    const energy = { source: await energyTotals(source), target: await energyTotals(targetDb) };
    for (const k of ['users', 'balances', 'ledger', 'mismatched'] as const) {
      if (energy.source[k] !== energy.target[k]) throw new MigrateToError(`ENERGY ${k} differ: source ${energy.source[k]}, target ${energy.target[k]}.`);
    }
    let checked = 0;
    let bytes = 0;
    for (const key of await referencedFiles(source)) {
      const a = await checksum(sourceStorage, key);
      if (!a) continue; // never written (a pending video) or already gone: nothing to move
      const b = moveFiles ? await checksum(targetStorage, key) : a;
      if (!b || a.sha256 !== b.sha256) throw new MigrateToError(`File ${key} differs in the target (sha256).`);
      checked += 1;
      bytes += a.size;
    }

    // Links to our own files stored in rows (the original a generated image was made from) are
    // answered with a fresh link to their key: the target storage must find the same key in each.
    let links = 0;
    const stored = await source.query<{ url: string }>('SELECT original_image_url AS url FROM uploaded_images WHERE original_image_url IS NOT NULL');
    for (const { url } of stored) {
      const key = sourceStorage.keyFromUrl(url);
      if (key === null) continue; // a link elsewhere (an import's source): kept as it is
      if (targetStorage.keyFromUrl(url) !== key) throw new MigrateToError(`A stored link to ${key} would not resolve in the target storage.`);
      links += 1;
    }

    const settings = [`DATABASE_URL=${target.databaseUrl}`];
    if (target.s3) {
      settings.push(`S3_BUCKET=${target.s3.bucket}`, `S3_REGION=${target.s3.region}`);
      if (target.s3.endpoint) settings.push(`S3_ENDPOINT=${target.s3.endpoint}`);
      if (target.s3.forcePathStyle !== undefined) settings.push(`S3_FORCE_PATH_STYLE=${target.s3.forcePathStyle}`);
      if (target.s3.accessKeyId) settings.push(`S3_ACCESS_KEY_ID=${target.s3.accessKeyId}`, 'S3_SECRET_ACCESS_KEY=<the secret you passed>');
    } else {
      settings.push(`DATA_DIR=${config.dataDir}   # files stay here; every node needs this directory`);
    }
    settings.push(
      config.appSecretFile
        ? `APP_SECRET=<the contents of ${config.appSecretFile}, on every node>`
        : 'APP_SECRET=<the same secret as today, on every node>',
    );
    return { rows, energy, files: { checked, bytes, moved: moveFiles }, links, settings };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    await targetDb?.close().catch(() => {});
    await source.close();
  }
}

export function parseMigrateToArgs(args: string[]): MigrateToTarget {
  const { values } = parseArgs({
    args,
    options: {
      'database-url': { type: 'string' },
      's3-bucket': { type: 'string' },
      's3-endpoint': { type: 'string' },
      's3-region': { type: 'string' },
      's3-access-key-id': { type: 'string' },
      's3-secret-access-key': { type: 'string' },
      's3-force-path-style': { type: 'string' },
    },
    strict: true,
  });
  const url = values['database-url'];
  if (!url || !/^postgres(ql)?:\/\//.test(url)) throw new MigrateToError('migrate-to needs --database-url postgres://...');
  const bucket = values['s3-bucket'];
  if (!bucket) {
    for (const k of ['s3-endpoint', 's3-access-key-id', 's3-secret-access-key'] as const) {
      if (values[k]) throw new MigrateToError(`--${k} needs --s3-bucket.`);
    }
    return { databaseUrl: url };
  }
  const accessKeyId = values['s3-access-key-id'];
  const secretAccessKey = values['s3-secret-access-key'];
  if (!!accessKeyId !== !!secretAccessKey) throw new MigrateToError('Pass both --s3-access-key-id and --s3-secret-access-key, or neither (default AWS credentials).');
  const style = values['s3-force-path-style'];
  return {
    databaseUrl: url,
    s3: {
      bucket,
      endpoint: values['s3-endpoint'],
      region: values['s3-region'] ?? 'us-east-1',
      accessKeyId,
      secretAccessKey,
      forcePathStyle: style === undefined ? undefined : style === 'true',
    },
  };
}

export async function migrateToCommand(config: Config, args: string[], print: (line: string) => void): Promise<void> {
  let target: MigrateToTarget;
  try {
    target = parseMigrateToArgs(args);
  } catch (err) {
    throw err instanceof MigrateToError ? err : new MigrateToError((err as Error).message);
  }
  const report = await migrateTo(config, target, print);
  print('Moved and verified:');
  for (const [table, n] of Object.entries(report.rows)) print(`  ${table.padEnd(28)} ${n.source} -> ${n.target}`);
  const e = report.energy.target;
  print(`  ENERGY: ${e.users} accounts, balances ${e.balances} = ledger ${e.ledger} (same as the source)`);
  print(`  files: ${report.files.checked} (${report.files.bytes} bytes) ${report.files.moved ? 'copied, sha256 equal' : 'left in place'}`);
  print(`  stored links to own files: ${report.links}, each answered with a fresh link from the new storage`);
  print('');
  print('Start the new topology with these settings (stop using DATA_DIR/db):');
  for (const s of report.settings) print(`  ${s}`);
}
