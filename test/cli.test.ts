import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/open-db.js';
import { AuthService } from '../src/server/features/auth/auth.service.js';

const run = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');

async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(TSX, ['src/server/cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// The CLI on the embedded database: works on a stopped app's data
// directory, refuses (clearly) while another process owns it.
describe('operator CLI on the embedded database', () => {
  it('sets roles and grants ENERGY; refuses while the directory is owned', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-'));
    const db = await openDatabase({ dataDir, DATABASE_URL: undefined });
    await new AuthService(db, []).signUp({ name: 'Op', email: 'op@example.com', password: 'password1' }, { ip: '1.1.1.1' });

    // While this process holds the database, the CLI must refuse.
    const busy = await cli(['grant', 'op@example.com', '5'], { DATA_DIR: dataDir });
    expect(busy.code).not.toBe(0);
    expect(busy.stderr).toMatch(/in use by another process/);
    await db.close();

    const role = await cli(['role', 'op@example.com', 'vip'], { DATA_DIR: dataDir });
    expect(role.stderr).toBe('');
    expect(role.stdout).toContain('op@example.com is now vip');
    const grant = await cli(['grant', 'op@example.com', '25'], { DATA_DIR: dataDir });
    expect(grant.stdout).toContain('balance is now 25');
    const bad = await cli(['grant', 'op@example.com', '-3'], { DATA_DIR: dataDir });
    expect(bad.code).not.toBe(0);
    const unknown = await cli(['role', 'nobody@example.com', 'admin'], { DATA_DIR: dataDir });
    expect(unknown.stderr).toContain('No account with e-mail nobody@example.com');

    const again = await openDatabase({ dataDir, DATABASE_URL: undefined });
    const [row] = await again.query<{ role: string; energy_balance: number }>(
      "SELECT u.role, p.energy_balance FROM users u JOIN user_profiles p ON p.id = u.id WHERE email = 'op@example.com'",
    );
    await again.close();
    expect(row).toEqual({ role: 'vip', energy_balance: 25 });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 300_000);
});

// The same commands on the Postgres server pass: the CLI works beside a
// running app (no directory lock), in a schema of its own.
describe.runIf(!!process.env.DATABASE_URL)('operator CLI on the Postgres server', () => {
  it('sets roles and grants ENERGY while another process has the database open', async () => {
    const server = process.env.DATABASE_URL!;
    const schema = `cli_${randomBytes(4).toString('hex')}`;
    const url = new URL(server);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const databaseUrl = url.toString();
    const db = await openDatabase({ dataDir: os.tmpdir(), DATABASE_URL: databaseUrl });
    try {
      await new AuthService(db, []).signUp({ name: 'Op', email: 'op@example.com', password: 'password1' }, { ip: '1.1.1.1' });
      // The app (here: this process) keeps its connections open meanwhile.
      const role = await cli(['role', 'op@example.com', 'admin'], { DATABASE_URL: databaseUrl });
      expect(role.stderr).toBe('');
      expect(role.stdout).toContain('op@example.com is now admin');
      const grant = await cli(['grant', 'op@example.com', '25'], { DATABASE_URL: databaseUrl });
      expect(grant.stdout).toContain('balance is now 25');
      const bad = await cli(['grant', 'op@example.com', '-3'], { DATABASE_URL: databaseUrl });
      expect(bad.code).not.toBe(0);
      const unknown = await cli(['role', 'nobody@example.com', 'admin'], { DATABASE_URL: databaseUrl });
      expect(unknown.stderr).toContain('No account with e-mail nobody@example.com');
      const [row] = await db.query<{ role: string; energy_balance: number }>(
        "SELECT u.role, p.energy_balance FROM users u JOIN user_profiles p ON p.id = u.id WHERE email = 'op@example.com'",
      );
      expect(row).toEqual({ role: 'admin', energy_balance: 25 });
      const ledger = await db.query<{ amount: number }>("SELECT amount FROM energy_transactions t JOIN users u ON u.id = t.user_id WHERE u.email = 'op@example.com'");
      expect(ledger.map((r) => r.amount)).toEqual([25]);
    } finally {
      await db.close();
      const admin = new pg.Client({ connectionString: server });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}_boss" CASCADE`);
      await admin.end();
    }
  }, 300_000);
});
