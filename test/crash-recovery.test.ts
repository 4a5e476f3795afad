import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outputOf } from './helpers/child-output.js';
import { dropSchemas, schemaUrl } from './helpers/install-fixture.js';

const serverUrl = process.env.DATABASE_URL;
// Each test, and each retry of one, starts on a data directory and schema of
// its own, and every process it started is killed after it: a retry is a real
// second try, never a fight with the first try's leftovers.
const dataDirs: string[] = [];
const schemas: string[] = [];
const children = new Set<ChildProcess>();
let dataDir = '';
let schema = '';
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crash-'));
  schema = `crash_${randomBytes(4).toString('hex')}`;
  dataDirs.push(dataDir);
  schemas.push(schema);
});
afterEach(async () => {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
  children.clear();
});

function env(): NodeJS.ProcessEnv {
  const base = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test' };
  return { ...base, DATABASE_URL: serverUrl ? schemaUrl(serverUrl, schema) : '' };
}

function start(args: string[], extra: Record<string, string>) {
  // One process (node with the tsx loader), so SIGKILL really kills the worker.
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/crash-run.ts', ...args], { env: { ...env(), ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  return { child, ...outputOf(child) };
}

afterAll(async () => {
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  if (serverUrl) await dropSchemas(serverUrl, ...schemas.flatMap((s) => [s, `${s}_boss`]));
});

// J1: at-least-once delivery made exactly-once in effect.
describe('a worker killed mid-run', () => {
  it('is picked up again: one charge, one library item, no refund, one webhook', async () => {
    const first = start(['submit'], { FAKE_DELAY_MS: '60000' });
    const [jobId] = (await first.line('JOB', 60_000)).split(' ');
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = start(['resume', jobId], { FAKE_DELAY_MS: '200' });
    const result = JSON.parse(await second.line('DONE', 120_000));
    expect(result).toMatchObject({ status: 'succeeded', spends: 1, refunds: 0, items: 1, balance: 8, webhooks: 1 });
    expect(result.attempts).toBeGreaterThanOrEqual(2);
  }, 240_000);

  it('after the result is stored and before the job is settled: one item (the same one), one charge, no refund', async () => {
    const first = start(['submit'], { FAKE_DELAY_MS: '200', STALL_AFTER_STORE: '1' });
    const [jobId] = (await first.line('JOB', 60_000)).split(' ');
    const [storedJob, itemId] = (await first.line('STORED', 60_000)).split(' ');
    expect(storedJob).toBe(jobId);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = start(['resume', jobId], { FAKE_DELAY_MS: '200' });
    const result = JSON.parse(await second.line('DONE', 120_000));
    expect(result).toMatchObject({ status: 'succeeded', spends: 1, refunds: 0, items: 1, balance: 8, itemIds: [itemId], webhooks: 1 });
    expect(result.attempts).toBeGreaterThanOrEqual(2);
  }, 240_000);
});
