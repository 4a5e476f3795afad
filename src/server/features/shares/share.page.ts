import { createHash } from 'node:crypto';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { shareMessages as msg } from '../../../shared/shares.schema.js';
import type { ShareRow } from './shares.repo.js';

/**
 * The public page of a share link: server-rendered, so link previews (which
 * run no script) read its Open Graph tags, and cheap to serve. Its one script
 * moves the compare slider; the CSP allows exactly that script by its hash.
 */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const SLIDER_SCRIPT =
  "document.querySelectorAll('[data-compare]').forEach(function(c){var r=c.querySelector('input');function u(){c.style.setProperty('--pos',r.value+'%');r.setAttribute('aria-valuetext',r.value+'% before, '+(100-r.value)+'% after')}r.addEventListener('input',u);u()});";
const SLIDER_HASH = `'sha256-${createHash('sha256').update(SLIDER_SCRIPT).digest('base64')}'`;

const STYLE = `
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;flex-direction:column;background:#09090b;color:#e4e4e7;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:#f0abfc}a:focus-visible,input:focus-visible+.handle span{outline:3px solid #e879f9;outline-offset:2px}
header,footer{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding:1rem 1.25rem;max-width:72rem;width:100%;margin:0 auto}
.brand{font-weight:800;font-size:1.125rem;color:#fff;text-decoration:none;letter-spacing:-.01em}.brand b{background:linear-gradient(90deg,#8b5cf6,#d946ef);-webkit-background-clip:text;background-clip:text;color:transparent}
.cta{display:inline-block;border-radius:.75rem;padding:.5rem .9rem;background:linear-gradient(90deg,#7c3aed,#c026d3);color:#fff;text-decoration:none;font-weight:600;font-size:.875rem}
main{flex:1;width:100%;max-width:72rem;margin:0 auto;padding:0 1.25rem 1.5rem}
h1{margin:.25rem 0 1rem;font-size:1.375rem;line-height:1.3;color:#fff}
.frame{position:relative;margin:0 auto;border:1px solid #27272a;border-radius:1rem;overflow:hidden;background:#18181b;max-height:75vh}
.frame img,.frame video{display:block;width:100%;height:100%;object-fit:contain}
.single img,.single video{max-height:75vh}
.compare{--pos:50%;touch-action:none}.compare .before{position:absolute;inset:0;clip-path:inset(0 calc(100% - var(--pos)) 0 0)}
.compare input{position:absolute;inset:0;width:100%;height:100%;margin:0;opacity:0;cursor:ew-resize;z-index:3}
.handle{position:absolute;top:0;bottom:0;left:var(--pos);width:2px;margin-left:-1px;background:#fff;box-shadow:0 0 6px rgba(0,0,0,.6);pointer-events:none;z-index:2}
.handle span{position:absolute;top:50%;left:50%;width:2.75rem;height:2.75rem;margin:-1.375rem 0 0 -1.375rem;border:2px solid #fff;border-radius:50%;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center;color:#fff;font-weight:700}
.tag{position:absolute;top:.75rem;z-index:2;border-radius:.375rem;padding:.2rem .5rem;font-size:.6875rem;font-weight:700;letter-spacing:.05em;text-transform:uppercase;color:#fff;background:rgba(0,0,0,.65);pointer-events:none}.tag.l{left:.75rem}.tag.r{right:.75rem;background:linear-gradient(90deg,rgba(124,58,237,.9),rgba(192,38,211,.9))}
.meta{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;margin-top:1rem;color:#a1a1aa;font-size:.875rem}.meta strong{color:#e4e4e7;font-weight:600}
footer{color:#a1a1aa;font-size:.8125rem;border-top:1px solid #18181b}
.gone{max-width:32rem;margin:12vh auto;text-align:center}.gone p{color:#a1a1aa}
`;

export interface PageAddress {
  publicUrl: string;
  token: string;
}

function head(title: string, description: string, extra: string[], indexable: boolean): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    `<title>${esc(title)}</title>`,
    `<meta name="description" content="${esc(description)}" />`,
    indexable ? '' : '<meta name="robots" content="noindex, nofollow" />',
    ...extra,
    `<style>${STYLE}</style></head>`,
  ].join('');
}

const header = (publicUrl: string) =>
  `<header><a class="brand" href="${esc(publicUrl)}/">Pixel<b>Rush</b></a><a class="cta" href="${esc(publicUrl)}/">Try ${PRODUCT_NAME}</a></header>`;
const footer = (publicUrl: string) => `<footer><a href="${esc(publicUrl)}/">${esc(msg.madeWith)}</a><span>Shared by a ${PRODUCT_NAME} user</span></footer>`;

export function renderSharePage(row: ShareRow, addr: PageAddress): string {
  const base = `/s/${addr.token}`;
  const pageUrl = `${addr.publicUrl}${base}`;
  const description = row.tool ? `${row.tool} result. ${msg.madeWith}.` : `${msg.madeWith}.`;
  const ratio = row.width && row.height ? `aspect-ratio:${row.width}/${row.height};max-width:calc(75vh * ${(row.width / row.height).toFixed(4)})` : '';
  const og = [
    `<meta property="og:type" content="${row.kind === 'video' ? 'video.other' : 'website'}" />`,
    `<meta property="og:site_name" content="${PRODUCT_NAME}" />`,
    `<meta property="og:title" content="${esc(row.title)}" />`,
    `<meta property="og:description" content="${esc(description)}" />`,
    `<meta property="og:url" content="${esc(pageUrl)}" />`,
    ...(row.poster_key ? [`<meta property="og:image" content="${esc(`${pageUrl}/preview`)}" />`, '<meta property="og:image:type" content="image/jpeg" />'] : []),
    ...(row.kind === 'video' ? [`<meta property="og:video" content="${esc(`${pageUrl}/media`)}" />`, `<meta property="og:video:type" content="${esc(row.media_type)}" />`] : []),
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:title" content="${esc(row.title)}" />`,
  ];
  const alt = row.tool ? `Result made with ${row.tool}` : 'Shared picture';
  let body: string;
  if (row.kind === 'video') {
    body = `<div class="frame single"${ratio ? ` style="${ratio}"` : ''}><video controls playsinline preload="metadata" src="${base}/media"${row.poster_key ? ` poster="${base}/preview"` : ''} aria-label="${esc(alt)}"></video></div>`;
  } else if (row.before_key) {
    body =
      `<div class="frame compare" data-compare style="${ratio}">` +
      `<img class="after" src="${base}/media" alt="After: ${esc(alt)}" />` +
      `<img class="before" src="${base}/before" alt="Before: the original picture" />` +
      '<span class="tag l" aria-hidden="true">Before</span><span class="tag r" aria-hidden="true">After</span>' +
      '<input type="range" min="0" max="100" step="1" value="50" aria-label="Compare before and after: use the arrow keys or drag" data-testid="share-compare" />' +
      '<div class="handle" aria-hidden="true"><span>&#8596;</span></div></div>' +
      `<script>${SLIDER_SCRIPT}</script>`;
  } else {
    body = `<div class="frame single"${ratio ? ` style="${ratio}"` : ''}><img src="${base}/media" alt="${esc(alt)}" /></div>`;
  }
  const meta = [
    row.tool ? `<span>Tool: <strong>${esc(row.tool)}</strong></span>` : '',
    row.width && row.height ? `<span>Size: <strong>${row.width} &times; ${row.height}</strong></span>` : '',
    row.before_key ? '<span>Drag the slider to compare before and after</span>' : '',
  ].join('');
  return `${head(row.title, description, og, row.indexable)}<body>${header(addr.publicUrl)}<main><h1>${esc(row.title)}</h1>${body}<p class="meta">${meta}</p></main>${footer(addr.publicUrl)}</body></html>`;
}

export function renderGonePage(publicUrl: string): string {
  return `${head(`Link not available - ${PRODUCT_NAME}`, msg.gone, [], false)}<body>${header(publicUrl)}<main><div class="gone"><h1>This link is not available</h1><p>${esc(msg.gone)}</p><p><a href="${esc(publicUrl)}/">${esc(msg.madeWith)}</a></p></div></main>${footer(publicUrl)}</body></html>`;
}

/** The page's own policy: its images and video (here or on the storage origin), its inline styles and the one script. */
export function sharePageCsp(storageOrigin: string | null): string {
  const media = ["'self'", ...(storageOrigin ? [storageOrigin] : [])].join(' ');
  return `default-src 'none'; img-src ${media}; media-src ${media}; style-src 'unsafe-inline'; script-src ${SLIDER_HASH}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}
