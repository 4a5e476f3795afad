import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { accessMessages } from '../../shared/access.messages.js';
import { NOT_FOUND_PAGE, WEB_PAGES, type WebPage } from '../../shared/pages.js';
import { PRODUCT_NAME } from '../../shared/constants.js';

const API_PREFIXES = ['/api/', '/functions/'];
/** Where vite writes content-hashed files: safe to cache for good. */
const ASSETS_DIR = 'assets';
/** The social card in the web app's public files (scripts/make-icons.mjs). */
const SOCIAL_IMAGE = '/og-image.png';
/**
 * Paths that are never pages, whatever a browser asks for: an address with a
 * file extension (a missing file, or a scanner's guess such as /backup.zip or
 * /.env) and the metrics endpoint. They answer a plain 404, never HTML.
 */
const NEVER_A_PAGE = /\.[A-Za-z0-9]{1,8}$|^\/\.|^\/metrics(\/|$)/;

function cacheControlFor(webDir: string, filePath: string): string {
  const rel = path.relative(webDir, filePath.replace(/\.(br|gz)$/, ''));
  if (rel.startsWith(`${ASSETS_DIR}${path.sep}`)) return 'public, max-age=31536000, immutable';
  if (rel.endsWith('.html')) return 'no-cache';
  return 'public, max-age=3600';
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The built index.html with one page's head: title, description, canonical
 * address and Open Graph / Twitter tags (absolute addresses, as link previews
 * need). Whatever the template had for these is replaced, so the page never
 * carries two titles.
 */
export function pageHtml(template: string, page: WebPage, address: { publicUrl: string; pathname: string }, status: 200 | 404): string {
  const { publicUrl } = address;
  const url = `${publicUrl}${address.pathname}`;
  const tags = [
    `<title>${escapeHtml(page.title)}</title>`,
    `<meta name="description" content="${escapeHtml(page.description)}" />`,
    ...(status === 200 && page.indexable ? [`<link rel="canonical" href="${escapeHtml(url)}" />`] : ['<meta name="robots" content="noindex" />']),
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${PRODUCT_NAME}" />`,
    `<meta property="og:title" content="${escapeHtml(page.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(page.description)}" />`,
    ...(status === 200 ? [`<meta property="og:url" content="${escapeHtml(url)}" />`] : []),
    `<meta property="og:image" content="${escapeHtml(publicUrl + SOCIAL_IMAGE)}" />`,
    `<meta property="og:image:width" content="1200" />`,
    `<meta property="og:image:height" content="630" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
  ];
  const stripped = template
    .replace(/<title>[\s\S]*?<\/title>\s*/i, '')
    .replace(/<meta\s+(name="(description|robots|twitter:[^"]*)"|property="og:[^"]*")[^>]*>\s*/gi, '')
    .replace(/<link\s+rel="canonical"[^>]*>\s*/gi, '');
  if (/<\/head>/i.test(stripped)) return stripped.replace(/<\/head>/i, `    ${tags.join('\n    ')}\n  </head>`);
  // A template without a head element: the tags open the document (browsers put them in the head).
  return stripped.replace(/^(<!doctype html>)?/i, `$1${tags.join('')}`);
}

/**
 * The built web app: its files as they are (precompressed, cached by kind),
 * its pages (shared/pages.ts, each a route) with status 200, and every other address a 404:
 * JSON for the API and for anything that is not a page, the app's own
 * not-found page for a browser.
 */
export async function registerWebApp(app: FastifyInstance, opts: { webDir?: string; publicUrl: string }): Promise<void> {
  const webDir = opts.webDir;
  const index = webDir ? path.join(webDir, 'index.html') : '';
  const hasWeb = !!webDir && fs.existsSync(index);
  if (hasWeb) {
    // wildcard: files built after start (a rebuild while running) are served too.
    await app.register(fastifyStatic, {
      root: webDir!,
      wildcard: true,
      // '/' is a page like the others (a route below): it gets its head from pageHtml.
      index: false,
      // .br / .gz written by the build, chosen by Accept-Encoding.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, filePath) => res.header('cache-control', cacheControlFor(webDir!, filePath)),
    });
  }

  const notFound = (req: FastifyRequest, reply: FastifyReply) =>
    reply.status(404).send({ error: accessMessages.notFound, code: 'not_found', request_id: req.id });

  const pathOf = (req: FastifyRequest) => req.url.split(/[?#]/)[0]!;
  const sendPage = (req: FastifyRequest, reply: FastifyReply, page: WebPage, status: 200 | 404) => {
    // Read at each request, so a rebuild while running is served too (a small, cached file).
    const html = pageHtml(fs.readFileSync(index, 'utf8'), page, { publicUrl: opts.publicUrl, pathname: pathOf(req) }, status);
    return reply.status(status).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  };

  if (hasWeb) {
    for (const page of Object.values(WEB_PAGES) as WebPage[]) {
      const paths = page.withSubpaths ? [page.path, `${page.path}/*`] : [page.path];
      for (const url of paths) app.get(url, { config: { auth: 'public' }, schema: { hide: true } }, (req, reply) => sendPage(req, reply, page, 200));
    }
  }

  app.setNotFoundHandler((req, reply) => {
    const pathname = pathOf(req);
    const isApi = API_PREFIXES.some((p) => pathname.startsWith(p)) || pathname === '/api';
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    if (!hasWeb || isApi || !isRead || pathname.startsWith(`/${ASSETS_DIR}/`) || NEVER_A_PAGE.test(pathname)) return notFound(req, reply);
    // A person who followed a broken link gets the app's not-found page; a script gets JSON.
    if (/\btext\/html\b/.test(req.headers.accept ?? '')) return sendPage(req, reply, NOT_FOUND_PAGE, 404);
    return notFound(req, reply);
  });
}
