import http from 'node:http';
import type { BrowserContext } from '@playwright/test';

/**
 * What a first page downloads, measured the same way by `npm run bench -- transfer` and by the
 * browser test that holds the budgets (e2e/first-load.spec.ts): the JavaScript and CSS files a
 * browser loads until the network is idle, each counted as the server sends it (brotli).
 */

/** The two first pages of issue 24: where they are, the words that say they have drawn, their JS budget (KiB, brotli). */
export const FIRST_PAGES = {
  landing: { path: '/', ready: 'Built for creators and professionals', jsBudget: 90 },
  dashboard: { path: '/dashboard', ready: 'AI Tools', jsBudget: 140 },
} as const;
export type FirstPage = keyof typeof FIRST_PAGES;

export const kib = (bytes: number) => bytes / 1024;

/** The size of a file as the server sends it to a browser that accepts brotli. */
export function bytesOnWire(url: string, cookie = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'br, gzip', cookie } }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve(bytes));
      })
      .on('error', reject);
  });
}

export interface Transfer {
  /** KiB, brotli. */
  js: number;
  css: number;
  files: Array<{ path: string; type: 'script' | 'stylesheet'; kib: number }>;
}

/** Opens `name` from `base` in `context` and adds up the JS and CSS it loads until the network is idle. */
export async function transfer(context: BrowserContext, base: string, name: FirstPage, cookie = ''): Promise<Transfer> {
  const { path, ready } = FIRST_PAGES[name];
  const page = await context.newPage();
  const seen = new Map<string, 'script' | 'stylesheet'>();
  page.on('response', (res) => {
    const type = res.request().resourceType();
    if (res.url().startsWith(base) && (type === 'script' || type === 'stylesheet')) seen.set(res.url(), type);
  });
  await page.goto(`${base}${path}`);
  await page.getByText(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.close();
  const files: Transfer['files'] = [];
  for (const [url, type] of seen) files.push({ path: new URL(url).pathname, type, kib: kib(await bytesOnWire(url, cookie)) });
  const total = (type: string) => files.filter((f) => f.type === type).reduce((sum, f) => sum + f.kib, 0);
  return { js: total('script'), css: total('stylesheet'), files };
}

/** One line per file (only the scripts or stylesheets when `type` is given): its size and path. */
export function fileList(t: Transfer, type?: 'script' | 'stylesheet'): string {
  return t.files
    .filter((f) => !type || f.type === type)
    .map((f) => `  ${f.kib.toFixed(1).padStart(6)}  ${f.path}`)
    .join('\n');
}
