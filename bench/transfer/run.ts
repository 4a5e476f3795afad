/**
 * Bytes a browser transfers for the landing page and the dashboard (HTML, JS
 * and CSS), compressed (Accept-Encoding: br, gzip) against the same files
 * uncompressed, from the compiled server (`npm run build` first):
 *
 *   npm run bench -- transfer
 *
 * Chromium loads each page to learn which files it needs; each file is then
 * fetched again with and without compression to count its bytes on the wire.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '../..');
if (!fs.existsSync(path.join(root, 'dist/server/main.js'))) {
  console.error('Run `npm run build` first.');
  process.exit(1);
}
const port = 3190 + Math.floor(Math.random() * 9);
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-transfer-'));
const server = spawn(process.execPath, ['dist/server/main.js'], {
  cwd: root,
  env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
  stdio: 'inherit',
});

function bytesOnWire(url: string, encoding: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }));
      })
      .on('error', reject);
  });
}

try {
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/api/ready`).then((r) => r.ok).catch(() => false)) break;
    if (i > 600) throw new Error('server not ready');
    await new Promise((r) => setTimeout(r, 200));
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const loaded = new Set<string>();
  page.on('response', (res) => {
    const type = res.request().resourceType();
    if (res.url().startsWith(base) && ['document', 'script', 'stylesheet'].includes(type)) loaded.add(res.url());
  });

  async function measure(label: string, visit: () => Promise<void>) {
    loaded.clear();
    await visit();
    await page.waitForLoadState('networkidle');
    let plain = 0;
    let packed = 0;
    const encodings = new Set<string>();
    for (const url of loaded) {
      plain += (await bytesOnWire(url, 'identity')).bytes;
      const c = await bytesOnWire(url, 'br, gzip');
      packed += c.bytes;
      encodings.add(c.encoding);
    }
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(
      `${label.padEnd(10)} ${String(loaded.size).padStart(2)} files  uncompressed ${kb(plain).padStart(9)}  compressed ${kb(packed).padStart(8)} (${[...encodings].join('/')})  ratio ${(plain / packed).toFixed(2)}x`,
    );
  }

  await measure('landing', async () => {
    await page.goto(`${base}/`);
    await page.getByText('Built for creators and professionals').waitFor();
  });
  await measure('dashboard', async () => {
    const email = `bench-${Date.now()}@example.com`;
    const res = await context.request.post(`${base}/api/auth/sign-up/email`, { data: { name: 'Bench', email, password: 'password123' } });
    if (!res.ok()) throw new Error(`sign-up failed: ${res.status()} ${await res.text()}`);
    await page.goto(`${base}/dashboard`);
    await page.getByRole('heading', { name: 'AI Tools', exact: true }).waitFor();
  });
  await browser.close();
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
