import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/http/app.js';
import { createMetricsRegistry } from '../src/server/observability/metrics.js';
import { WEB_PAGES } from '../src/shared/pages.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Only the web app's pages answer 200 with HTML: its public files are real
 * files, every other address is a 404 (a friendly page for a browser, JSON
 * otherwise), and addresses that are never pages never get HTML.
 */
const PUBLIC = path.resolve('src/web/public');
const TEMPLATE = fs.readFileSync(path.resolve('src/web/index.html'), 'utf8');
const PUBLIC_URL = 'https://pixelrush.example';
const TOKEN = 'metrics-token-0123456789';
const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let t: TestApp;
let app: FastifyInstance;
let webDir: string;

beforeAll(async () => {
  // The built app's layout: index.html plus everything in public/ at the root.
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-pages-'));
  fs.cpSync(PUBLIC, webDir, { recursive: true });
  fs.writeFileSync(path.join(webDir, 'index.html'), TEMPLATE);
  t = await createTestApp({ PUBLIC_URL, METRICS_TOKEN: TOKEN, TEST_CHECKOUT: 'off' });
  app = await buildApp(t.ctx, { webDir, metrics: createMetricsRegistry({ db: t.db, realtime: t.ctx.services.realtime }) });
}, 180_000);

afterAll(async () => {
  await app?.close();
  await t?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const meta = (html: string, attr: 'name' | 'property', key: string) =>
  [...html.matchAll(new RegExp(`<meta ${attr}="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`, 'g'))].map((m) => m[1]);

describe('public files', () => {
  it('robots.txt, the favicon, the web manifest and its icons are real files of the right type', async () => {
    const robots = await app.inject({ url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.body).toMatch(/^User-agent: \*$/m);
    expect(robots.body).toMatch(/^Disallow: \/api\/$/m);

    const ico = await app.inject({ url: '/favicon.ico' });
    expect(ico.statusCode).toBe(200);
    expect(ico.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    expect([...ico.rawPayload.subarray(0, 4)]).toEqual([0, 0, 1, 0]);

    const manifest = await app.inject({ url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const m = manifest.json<{ name: string; start_url: string; icons: { src: string; sizes: string; type: string }[] }>();
    expect(m.name).toBe('PixelRush');
    expect(m.start_url).toBe(WEB_PAGES.dashboard.path);
    for (const icon of m.icons) {
      const res = await app.inject({ url: icon.src });
      expect(res.statusCode, icon.src).toBe(200);
      expect(res.headers['content-type'], icon.src).toContain(icon.type);
      if (icon.type === 'image/png') {
        const { width, height } = await sharp(res.rawPayload).metadata();
        expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
      }
    }
    for (const url of ['/apple-touch-icon.png', '/og-image.png']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('image/png');
    }
  });
});

describe('pages', () => {
  const pages = [...Object.values(WEB_PAGES), { ...WEB_PAGES.dashboard, path: '/dashboard/upscaler' }];

  it.each(pages.map((p) => [p.path, p] as const))('%s answers 200 with its own title, description and Open Graph tags', async (url, page) => {
    const res = await app.inject({ url, headers: browser });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = res.body;
    // One title and one description: the template's are replaced, not repeated.
    expect([...html.matchAll(/<title>([^<]*)<\/title>/g)].map((x) => x[1])).toEqual([page.title.replace(/&/g, '&amp;')]);
    expect(meta(html, 'name', 'description')).toEqual([page.description]);
    expect(meta(html, 'property', 'og:title')).toEqual([page.title.replace(/&/g, '&amp;')]);
    expect(meta(html, 'property', 'og:description')).toEqual([page.description]);
    expect(meta(html, 'property', 'og:url')).toEqual([`${PUBLIC_URL}${page.path}`]);
    expect(meta(html, 'property', 'og:image')).toEqual([`${PUBLIC_URL}/og-image.png`]);
    expect(meta(html, 'name', 'twitter:card')).toEqual(['summary_large_image']);
    // The app itself still loads.
    expect(html).toContain('<div id="root"></div>');
  });

  it('the landing and privacy pages may be indexed; pages behind an account or a mailed link may not', async () => {
    expect((await app.inject({ url: '/privacy' })).body).toContain(`<link rel="canonical" href="${PUBLIC_URL}/privacy" />`);
    expect((await app.inject({ url: '/' })).body).not.toContain('noindex');
    expect((await app.inject({ url: '/reset-password?token=x' })).body).toContain('<meta name="robots" content="noindex" />');
  });
});

describe('addresses that are not pages', () => {
  it('answer 404: the app’s not-found page for a browser, JSON for anything else', async () => {
    for (const url of ['/nope', '/wp-admin', '/dashboardx', '/privacy/more', '/admin/login?next=/']) {
      const page = await app.inject({ url, headers: browser });
      expect(page.statusCode, url).toBe(404);
      expect(page.headers['content-type'], url).toMatch(/^text\/html/);
      expect(page.body, url).toContain('<title>Page not found - PixelRush</title>');
      expect(page.body, url).toContain('<meta name="robots" content="noindex" />');
      expect(meta(page.body, 'property', 'og:url'), url).toEqual([]);

      const script = await app.inject({ url });
      expect(script.statusCode, url).toBe(404);
      expect(script.json(), url).toMatchObject({ code: 'not_found' });
    }
  });

  it('never answer HTML for files, dot-files, scanner guesses, other methods or the metrics endpoint', async () => {
    for (const url of ['/backup.zip', '/index.php.bak', '/.env', '/.git/config', '/site.tar.gz', '/missing.png', '/assets/gone-123.js', '/metrics/extra']) {
      const res = await app.inject({ url, headers: browser });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
    }
    const post = await app.inject({ method: 'POST', url: '/privacy', headers: browser });
    expect(post.statusCode).toBe(404);
    expect(post.headers['content-type']).toMatch(/^application\/json/);
  });

  it('/metrics without its token is 401 JSON; with it, the metrics', async () => {
    const anonymous = await app.inject({ url: '/metrics', headers: browser });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['content-type']).toMatch(/^application\/json/);
    const scraped = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toContain('pixelrush_http_request_duration_seconds');
  });

  it('/metrics on a server without METRICS_TOKEN is a JSON 404, even for a browser', async () => {
    const plain = await createTestApp();
    const other = await buildApp(plain.ctx, { webDir });
    try {
      const res = await other.inject({ url: '/metrics', headers: browser });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    } finally {
      await other.close();
      await plain.close();
    }
  }, 180_000);
});
