/**
 * What the first page costs, from the compiled server (`npm run build` first):
 *
 *   npm run bench -- transfer
 *
 * For the landing page (signed out) and the dashboard (signed in): the JavaScript and CSS a browser
 * downloads, compressed as the server sends them (brotli), then mobile Lighthouse performance (its
 * default phone emulation and throttling), the median of three runs with its LCP and TBT. Both are
 * printed against the budgets of issue 24 and the figures measured before it (decision 032).
 * TRANSFER_LIGHTHOUSE=0 skips Lighthouse; TRANSFER_FILES=1 lists every file with its size.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import lighthouse from 'lighthouse';
import { FIRST_PAGES, fileList, transfer } from './measure';

const root = path.resolve(import.meta.dirname, '../..');
if (!fs.existsSync(path.join(root, 'dist/server/main.js'))) {
  console.error('Run `npm run build` first.');
  process.exit(1);
}
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const runLighthouse = process.env.TRANSFER_LIGHTHOUSE !== '0';
const RUNS = 3;

/** Issue 24's budgets (the JS ones in measure.ts, which the browser tests hold), and what the same measures gave before the work on it. */
const PAGES = {
  landing: { jsBudget: FIRST_PAGES.landing.jsBudget, before: { js: 122.6, score: 91, lcp: 2.5, tbt: 260 }, scoreBudget: 95 },
  dashboard: { jsBudget: FIRST_PAGES.dashboard.jsBudget, before: { js: 178.5, score: 80, lcp: 3.2, tbt: 470 }, scoreBudget: 90 },
} as const;
type PageName = keyof typeof PAGES;

const port = 3190 + Math.floor(Math.random() * 9);
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-transfer-'));
const server = spawn(process.execPath, ['dist/server/main.js'], {
  cwd: root,
  env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
  stdio: 'inherit',
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The JS and CSS of a first page (measure.ts), each file listed when TRANSFER_FILES=1. */
async function measure(context: BrowserContext, name: PageName, cookie: string) {
  const t = await transfer(context, base, name, cookie);
  if (process.env.TRANSFER_FILES === '1') console.log(fileList(t));
  return { js: t.js, css: t.css, files: t.files.length, cookie };
}

async function lighthouseRuns(url: string, cookie: string, debugPort: number) {
  const runs: Array<{ score: number; lcp: number; tbt: number }> = [];
  for (let i = 0; i < RUNS; i++) {
    const result = await lighthouse(url, {
      port: debugPort,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      // The session cookie for the dashboard; the storage reset would not clear a header.
      extraHeaders: cookie ? { cookie } : undefined,
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error('Lighthouse gave no result');
    runs.push({
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcp: (lhr.audits['largest-contentful-paint']?.numericValue ?? NaN) / 1000,
      tbt: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
    });
  }
  return { score: median(runs.map((r) => r.score)), lcp: median(runs.map((r) => r.lcp)), tbt: median(runs.map((r) => r.tbt)), all: runs.map((r) => r.score) };
}

const debugPort = 9300 + Math.floor(Math.random() * 90);
const chrome = runLighthouse
  ? spawn(chromiumPath, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', `--remote-debugging-port=${debugPort}`, `--user-data-dir=${path.join(dataDir, 'chrome')}`, 'about:blank'], { stdio: 'ignore' })
  : null;

try {
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/api/ready`).then((r) => r.ok).catch(() => false)) break;
    if (i > 600) throw new Error('server not ready');
    await new Promise((r) => setTimeout(r, 200));
  }
  const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ name: 'Bench', email: `bench-${Date.now()}@example.com`, password: 'password123' }),
  });
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const sessionCookie = signUp.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const signedOut = await browser.newContext();
  const signedIn = await browser.newContext();
  await signedIn.addCookies(sessionCookie.split('; ').map((c) => ({ name: c.split('=')[0]!, value: c.slice(c.indexOf('=') + 1), url: base })));
  const measured = {
    landing: await measure(signedOut, 'landing', ''),
    dashboard: await measure(signedIn, 'dashboard', sessionCookie),
  };
  await browser.close();

  const f = (n: number) => n.toFixed(1).padStart(6);
  console.log('JavaScript and CSS, brotli, KiB (files loaded until the network is idle)');
  console.log('page        JS   budget   before     CSS  files');
  for (const name of Object.keys(PAGES) as PageName[]) {
    const m = measured[name];
    const p = PAGES[name];
    console.log(`${name.padEnd(10)}${f(m.js)} ${m.js <= p.jsBudget ? '<=' : ' >'}${String(p.jsBudget).padStart(4)}   ${f(p.before.js)}  ${f(m.css)}  ${String(m.files).padStart(5)}`);
  }
  if (chrome) {
    for (let i = 0; ; i++) {
      if (await fetch(`http://127.0.0.1:${debugPort}/json/version`).then((r) => r.ok).catch(() => false)) break;
      if (i > 100) throw new Error('Chromium did not open its debugging port');
      await new Promise((r) => setTimeout(r, 100));
    }
    console.log(`\nMobile Lighthouse performance, median of ${RUNS} (before: the same measure before issue 24's work)`);
    console.log('page       score  budget  before   LCP s  before   TBT ms  before   runs');
    for (const name of Object.keys(PAGES) as PageName[]) {
      const url = `${base}${FIRST_PAGES[name].path}`;
      const r = await lighthouseRuns(url, measured[name].cookie, debugPort);
      const p = PAGES[name];
      console.log(
        `${name.padEnd(10)} ${String(r.score).padStart(5)}  ${r.score >= p.scoreBudget ? '>=' : ' <'}${String(p.scoreBudget).padStart(3)}  ${String(p.before.score).padStart(6)}  ${r.lcp.toFixed(2).padStart(6)}  ${p.before.lcp.toFixed(1).padStart(6)}  ${String(Math.round(r.tbt)).padStart(7)}  ${String(p.before.tbt).padStart(6)}   ${r.all.join(' ')}`,
      );
    }
  }
} finally {
  chrome?.kill('SIGTERM');
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
