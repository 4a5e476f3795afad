/**
 * Start-up time to a ready server (/api/ready answers 200): the compiled
 * server (`node dist/server/main.js`, after `npm run build`) against the
 * TypeScript sources through tsx, on the same data directory, alternating:
 *
 *   npm run bench -- startup
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
if (!fs.existsSync(path.join(root, 'dist/server/main.js'))) {
  console.error('Run `npm run build` first.');
  process.exit(1);
}
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
const port = 3180 + Math.floor(Math.random() * 9);

async function startOnce(args: string[]): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  try {
    for (;;) {
      if (await fetch(`http://127.0.0.1:${port}/api/ready`).then((r) => r.ok).catch(() => false)) return performance.now() - t0;
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      if (performance.now() - t0 > 180_000) throw new Error('not ready in 180 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const compiled = ['dist/server/main.js'];
const tsx = ['--import', 'tsx', 'src/server/main.ts'];
await startOnce(compiled); // creates and migrates the database: not counted
const times = { compiled: [] as number[], tsx: [] as number[] };
for (let i = 0; i < ROUNDS; i++) {
  times.tsx.push(await startOnce(tsx));
  times.compiled.push(await startOnce(compiled));
}
fs.rmSync(dataDir, { recursive: true, force: true });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const c = median(times.compiled);
const t = median(times.tsx);
console.log(`start to ready, median of ${ROUNDS}: compiled ${Math.round(c)} ms, tsx ${Math.round(t)} ms (baseline); tsx/compiled ${(t / c).toFixed(2)}x`);
