import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices } from '../src/server/app-context.js';
import { parseConfig, type Config } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/open-db.js';
import { buildApp } from '../src/server/http/app.js';
import { EnergyService } from '../src/server/features/energy/energy.service.js';
import { BACKUP_SCRUB } from '../src/server/ops/backup-archive.js';
import { backupCommand, restoreCommand } from '../src/server/ops/backup-commands.js';
import { energyTotals } from '../src/server/ops/migrate-to.js';
import { createStorage } from '../src/server/providers/storage/create-storage.js';
import { dropSchemas, fingerprint, schemaUrl, seedInstall } from './helpers/install-fixture.js';

const run = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');
const SECRET = 'backup-test-secret-0123456789abcdef';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pr-backup-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const configFor = (env: Record<string, string>): Config =>
  parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', APP_SECRET: SECRET, ...env });
const quiet = () => {};

async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(TSX, ['src/server/cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', APP_SECRET: SECRET, ...env },
      timeout: 180_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Tables a backup leaves out or defuses (checked on their own in secrets-backups.test.ts). */
const kept = <T>(byTable: Record<string, T>) => Object.fromEntries(Object.entries(byTable).filter(([name]) => !(name in BACKUP_SCRUB)));

async function fingerprintOf(config: Config) {
  const db = await openDatabase(config);
  try {
    return { ...(await fingerprint(db, createStorage(config))), energy: await energyTotals(db) };
  } finally {
    await db.close();
  }
}

describe.skipIf(!!process.env.DATABASE_URL)('backup and restore on the embedded database', () => {
  it('backs up a running and a stopped install; restores into an empty data directory with equal rows and files', async () => {
    const source = configFor({ DATA_DIR: path.join(tmp, 'source'), HOST: '127.0.0.1' });
    const db = await openDatabase(source);
    await seedInstall(source, db);
    const before = { ...(await fingerprint(db, createStorage(source))), energy: await energyTotals(db) };
    expect(Object.keys(before.files).length).toBe(12); // 3 users x 2 images x (file + thumbnail)
    expect(before.rows.users).toBe(3);
    expect(before.energy).toMatchObject({ users: 3, balances: 40 + 41 + 42 - 9, mismatched: 0 });

    // Running: the CLI cannot open the database this process owns, so it asks the app.
    const log = pino({ level: 'silent' });
    const app = await buildApp({ config: source, db, log, services: createServices(source, db, log) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const runningFile = path.join(tmp, 'running.tar.gz');
    const res = await cli(['backup', runningFile], { DATA_DIR: source.dataDir, HOST: '127.0.0.1', PORT: String(port) });
    expect(res.stderr).toBe('');
    expect(res.stdout).toContain('asking it for the backup');
    expect(fs.existsSync(runningFile)).toBe(true);
    expect(fs.existsSync(`${runningFile}.partial`)).toBe(false);

    // A token made with another secret, or none, is refused.
    const forged = await fetch(`http://127.0.0.1:${port}/api/ops/backup`, { method: 'POST', headers: { 'x-backup-token': `${Math.floor(Date.now() / 1000) + 30}.00` } });
    expect(forged.status).toBe(403);
    await app.close();
    await db.close();

    // Stopped: the CLI opens the data directory itself.
    const stoppedFile = path.join(tmp, 'stopped.tar.gz');
    const lines: string[] = [];
    await backupCommand(source, stoppedFile, (l) => lines.push(l));
    expect(lines.join('\n')).toMatch(/12 files \(\d+ bytes, sha256 recorded\)/);

    for (const [name, file] of [['from-running', runningFile], ['from-stopped', stoppedFile]] as const) {
      const target = configFor({ DATA_DIR: path.join(tmp, name) });
      const report: string[] = [];
      await restoreCommand(target, file, (l) => report.push(l));
      expect(report.join('\n')).toContain('files: 12');
      const after = await fingerprintOf(target);
      expect(kept(after.rows)).toEqual(kept(before.rows));
      expect(kept(after.content)).toEqual(kept(before.content));
      expect(after.rows.sessions).toBe(0);
      expect(after.files).toEqual(before.files);
      expect(after.energy).toEqual(before.energy);
      await expect(restoreCommand(target, file, quiet)).rejects.toThrow(/not empty/);

      // New rows continue the restored ids (identity sequences moved past the loaded rows).
      const restored = await openDatabase(target);
      const [{ max }] = await restored.query<{ max: number }>('SELECT max(seq)::int AS max FROM energy_transactions');
      const [someone] = await restored.query<{ id: string }>('SELECT id FROM users LIMIT 1');
      await new EnergyService(restored).grant(someone.id, 1, 'Granted by operator');
      const [{ seq }] = await restored.query<{ seq: number }>('SELECT max(seq)::int AS seq FROM energy_transactions');
      await restored.close();
      expect(seq).toBe(max + 1);
    }

    // A cut archive (no summary) is refused rather than half-restored silently.
    const cut = path.join(tmp, 'cut.tar.gz');
    fs.writeFileSync(cut, fs.readFileSync(stoppedFile).subarray(0, 200));
    await expect(restoreCommand(configFor({ DATA_DIR: path.join(tmp, 'from-cut') }), cut, quiet)).rejects.toThrow();
  }, 300_000);
});

describe.skipIf(!process.env.DATABASE_URL)('backup and restore on the Postgres server', () => {
  const base = process.env.DATABASE_URL!;
  const tag = randomBytes(4).toString('hex');
  const [from, to] = [`bk_src_${tag}`, `bk_dst_${tag}`];
  afterAll(() => dropSchemas(base, from, to));

  it('takes one consistent snapshot while writes go on, and restores it into an empty schema', async () => {
    const source = configFor({ DATABASE_URL: schemaUrl(base, from), DATA_DIR: path.join(tmp, 'pg-source') });
    const db = await openDatabase(source);
    const services = await seedInstall(source, db);
    const before = { ...(await fingerprint(db, createStorage(source))), energy: await energyTotals(db) };

    // Grants keep landing during the backup: balance and ledger change in one
    // transaction, so a dump that is not one snapshot shows them out of step.
    const [someone] = await db.query<{ id: string }>('SELECT id FROM users ORDER BY email LIMIT 1');
    let writing = true;
    let granted = 0;
    const writer = (async () => {
      while (writing) {
        await services.energy.grant(someone.id, 1, 'Granted by operator');
        granted += 1;
      }
    })();
    while (granted < 5) await new Promise((r) => setTimeout(r, 5));
    const file = path.join(tmp, 'pg.tar.gz');
    const grantedBefore = granted;
    await backupCommand(source, file, quiet);
    expect(granted).toBeGreaterThan(grantedBefore); // writes really went on during the backup
    writing = false;
    await writer;
    expect(granted).toBeGreaterThan(0);
    await db.close();

    const target = configFor({ DATABASE_URL: schemaUrl(base, to), DATA_DIR: path.join(tmp, 'pg-target') });
    await restoreCommand(target, file, quiet);
    const after = await fingerprintOf(target);
    expect(after.energy.mismatched).toBe(0);
    expect(after.files).toEqual(before.files);
    // Every table as before the backup, except the ledger rows granted while it ran (those in its snapshot).
    const extra = after.rows.energy_transactions - before.rows.energy_transactions;
    expect(extra).toBeGreaterThanOrEqual(0);
    expect(extra).toBeLessThanOrEqual(granted);
    expect(kept({ ...after.rows, energy_transactions: 0 })).toEqual(kept({ ...before.rows, energy_transactions: 0 }));
    const untouched = (c: Record<string, string>) => kept({ ...c, energy_transactions: '', user_profiles: '' });
    expect(untouched(after.content)).toEqual(untouched(before.content));
    expect(after.energy.balances).toBe(before.energy.balances + extra);

    await expect(restoreCommand(target, file, quiet)).rejects.toThrow(/not empty/);
  }, 300_000);
});
