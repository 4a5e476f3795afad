/**
 * Clean reference photos for the restore benchmark, rendered here (nothing
 * is fetched): the upscaler bench's SVG scenes (landscape, face, city,
 * poster text, leaf, fabric) plus a brick wall with a painted sign and a
 * second face with patterned clothing. Each is rendered at twice the size
 * and shrunk with Lanczos, so edges are soft the way a lens makes them, and
 * no noise is added: the reference must be what a perfect restore returns.
 */
import sharp from 'sharp';
import type { RawImage } from '../../src/server/providers/ai/local/resample.js';
import { SCENE_NAMES, svgScene } from '../upscale/scenes.js';

function extraScene(kind: number, w: number, h: number): string {
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 256 256" preserveAspectRatio="none">`;
  const noise = (id: string, freq: number, oct: number, seed: number, type = 'fractalNoise') =>
    `<filter id="${id}" x="0" y="0" width="100%" height="100%"><feTurbulence type="${type}" baseFrequency="${freq}" numOctaves="${oct}" seed="${seed}"/><feColorMatrix type="saturate" values="0"/></filter>`;
  if (kind === 0) {
    // Brick wall (mortar lines, rough surface) with a painted shop sign.
    const bricks: string[] = [];
    for (let row = 0; row < 22; row++)
      for (let col = -1; col < 12; col++) {
        const x = col * 24 + (row % 2 ? 12 : 0);
        const shade = ['#8c3b2a', '#9a4632', '#7d3324', '#a24f38', '#86402e'][(row * 7 + col * 3 + 20) % 5];
        bricks.push(`<rect x="${x + 1}" y="${row * 12 + 1}" width="22" height="10" fill="${shade}"/>`);
      }
    return `${open}<defs>${noise('rough', 0.35, 3, 41, 'turbulence')}</defs>
      <rect width="256" height="256" fill="#c9c1b2"/>${bricks.join('')}
      <rect width="256" height="256" filter="url(#rough)" opacity="0.22"/>
      <rect x="36" y="96" width="184" height="62" rx="4" fill="#1f3d2b" stroke="#e8d9a8" stroke-width="2"/>
      <text x="128" y="126" text-anchor="middle" font-family="DejaVu Serif" font-size="22" fill="#f1e4b8">BAKERY</text>
      <text x="128" y="146" text-anchor="middle" font-family="DejaVu Sans" font-size="10" fill="#f1e4b8">fresh bread daily since 1931</text></svg>`;
  }
  // A second face: glasses, a striped scarf, soft window light behind.
  return `${open}<defs><radialGradient id="skin" cx="0.45" cy="0.4" r="0.6"><stop offset="0" stop-color="#e6b48f"/><stop offset="1" stop-color="#9c6446"/></radialGradient>
      <linearGradient id="win" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#dfe8ef"/><stop offset="1" stop-color="#7d8a96"/></linearGradient>
      <pattern id="scarf" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(-20)"><rect width="4" height="8" fill="#2d4f8a"/><rect x="4" width="4" height="8" fill="#d8c27a"/></pattern>${noise('hair2', 0.7, 3, 17, 'turbulence')}</defs>
      <rect width="256" height="256" fill="url(#win)"/>
      <ellipse cx="128" cy="92" rx="70" ry="58" fill="#1e1410"/><ellipse cx="128" cy="92" rx="70" ry="58" filter="url(#hair2)" opacity="0.3"/>
      <ellipse cx="128" cy="128" rx="54" ry="70" fill="url(#skin)"/>
      <circle cx="106" cy="120" r="14" fill="none" stroke="#222" stroke-width="3"/><circle cx="150" cy="120" r="14" fill="none" stroke="#222" stroke-width="3"/>
      <path d="M120 120 h16" stroke="#222" stroke-width="3"/>
      <circle cx="106" cy="121" r="3.5" fill="#4a3020"/><circle cx="150" cy="121" r="3.5" fill="#4a3020"/>
      <path d="M112 164 q16 9 32 0" stroke="#8c3a33" stroke-width="3.5" fill="none"/>
      <path d="M60 256 L76 196 Q128 214 180 196 L196 256 Z" fill="url(#scarf)"/></svg>`;
}

export const PHOTO_NAMES = [...SCENE_NAMES, 'brick sign', 'face 2'];

/** Renders photo `k` (0..PHOTO_NAMES.length-1) at w x h, without noise. */
export async function photo(k: number, w: number, h: number): Promise<RawImage> {
  const svg = k < SCENE_NAMES.length ? svgScene(k, 2 * w, 2 * h) : extraScene(k - SCENE_NAMES.length, 2 * w, 2 * h);
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .resize(w, h, { kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}
