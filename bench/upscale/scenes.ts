/**
 * Procedural "photos" for the upscaler benchmark (we cannot download test
 * sets here): SVG scenes with fractal-noise textures (feTurbulence), soft
 * gradients, anti-aliased edges, text and fine patterns, plus mild sensor
 * noise, rendered by sharp/librsvg. Deterministic (fixed seeds).
 */
import sharp from 'sharp';
import type { RawImage } from '../../src/server/providers/ai/local/resample.js';

export function svgScene(kind: number, w: number, h: number): string {
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 256 256" preserveAspectRatio="none">`;
  const noise = (id: string, freq: number, oct: number, seed: number, type = 'fractalNoise') =>
    `<filter id="${id}" x="0" y="0" width="100%" height="100%"><feTurbulence type="${type}" baseFrequency="${freq}" numOctaves="${oct}" seed="${seed}"/><feColorMatrix type="saturate" values="0"/></filter>`;
  switch (kind) {
    case 0: // landscape: sky, mountains with rock texture, lake
      return `${open}<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3b6ea8"/><stop offset="1" stop-color="#cfe3f2"/></linearGradient>${noise('rock', 0.06, 5, 3)}</defs>
        <rect width="256" height="256" fill="url(#sky)"/>
        <path d="M0 170 L40 110 L70 135 L110 70 L150 125 L185 95 L220 140 L256 115 L256 256 L0 256 Z" fill="#5d5a4f"/>
        <path d="M0 170 L40 110 L70 135 L110 70 L150 125 L185 95 L220 140 L256 115 L256 256 L0 256 Z" filter="url(#rock)" opacity="0.45"/>
        <path d="M98 84 L110 70 L122 86 L114 82 L106 88 Z" fill="#f4f4f4"/>
        <rect y="190" width="256" height="66" fill="#2f5d7c"/><rect y="190" width="256" height="66" filter="url(#rock)" opacity="0.25"/>
        <g fill="#1f3b24">${Array.from({ length: 14 }, (_, i) => `<path d="M${8 + i * 18} 192 l6 -22 l6 22 z"/>`).join('')}</g></svg>`;
    case 1: // portrait-like: skin-tone blobs, hair texture, eyes
      return `${open}<defs><radialGradient id="face" cx="0.5" cy="0.45" r="0.5"><stop offset="0" stop-color="#f1c7a5"/><stop offset="1" stop-color="#c98e6a"/></radialGradient>${noise('hair', 0.9, 3, 8, 'turbulence')}${noise('bg', 0.02, 3, 5)}</defs>
        <rect width="256" height="256" fill="#6b7d5e"/><rect width="256" height="256" filter="url(#bg)" opacity="0.3"/>
        <ellipse cx="128" cy="84" rx="78" ry="62" fill="#3a2518"/><ellipse cx="128" cy="84" rx="78" ry="62" filter="url(#hair)" opacity="0.35"/>
        <ellipse cx="128" cy="130" rx="62" ry="80" fill="url(#face)"/>
        <ellipse cx="104" cy="120" rx="11" ry="6" fill="#fff"/><circle cx="104" cy="120" r="4.5" fill="#3b5b7a"/><circle cx="104" cy="120" r="2" fill="#000"/>
        <ellipse cx="152" cy="120" rx="11" ry="6" fill="#fff"/><circle cx="152" cy="120" r="4.5" fill="#3b5b7a"/><circle cx="152" cy="120" r="2" fill="#000"/>
        <path d="M92 110 q12 -8 24 0 M140 110 q12 -8 24 0" stroke="#3a2518" stroke-width="3" fill="none"/>
        <path d="M110 170 q18 12 36 0" stroke="#a0493f" stroke-width="4" fill="none"/><path d="M128 125 l-6 26 l10 0" stroke="#b57c5c" stroke-width="2" fill="none"/></svg>`;
    case 2: // city: buildings with window grids (fine regular detail)
      return `${open}<defs><linearGradient id="s2" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f0a36b"/><stop offset="1" stop-color="#6d5a8c"/></linearGradient>${noise('wall', 0.3, 2, 11)}</defs>
        <rect width="256" height="256" fill="url(#s2)"/>
        ${[[0, 90, 50], [52, 60, 40], [94, 120, 56], [152, 40, 46], [200, 100, 56]]
          .map(
            ([x, y, bw], i) =>
              `<rect x="${x}" y="${y}" width="${bw}" height="${256 - y}" fill="${['#39404d', '#4a4f5c', '#2e3440', '#525866', '#3d4350'][i]}"/>` +
              Array.from({ length: Math.floor((256 - y - 8) / 9) * Math.floor((bw - 6) / 8) }, (_, k) => {
                const cols = Math.floor((bw - 6) / 8);
                const cx = x + 4 + (k % cols) * 8;
                const cy = y + 6 + Math.floor(k / cols) * 9;
                return `<rect x="${cx}" y="${cy}" width="4" height="5" fill="${(k * 7 + i) % 5 === 0 ? '#ffd86b' : '#1b1f27'}"/>`;
              }).join(''),
          )
          .join('')}
        <rect width="256" height="256" filter="url(#wall)" opacity="0.12"/></svg>`;
    case 3: // text and graphics: a poster
      return `${open}<rect width="256" height="256" fill="#f7f3e8"/>
        <text x="14" y="60" font-family="DejaVu Serif" font-size="40" fill="#1d1d1d">Sunrise</text>
        <text x="14" y="92" font-family="DejaVu Sans" font-size="16" fill="#7a2e2e">Lorem ipsum dolor sit amet,</text>
        <text x="14" y="112" font-family="DejaVu Sans" font-size="12" fill="#333">consectetur adipiscing elit sed do</text>
        <text x="14" y="128" font-family="DejaVu Sans Mono" font-size="10" fill="#333">0123456789 ABCDEFGH ijklmnop</text>
        <circle cx="196" cy="190" r="44" fill="#e8833a"/><path d="M140 230 L256 230" stroke="#222" stroke-width="3"/>
        ${Array.from({ length: 12 }, (_, i) => `<line x1="14" y1="${150 + i * 8}" x2="${120 - i * 5}" y2="${150 + i * 8}" stroke="#555" stroke-width="${1 + (i % 3)}"/>`).join('')}</svg>`;
    case 4: // nature macro: leaves with veins and bokeh
      return `${open}<defs>${noise('fol', 0.05, 4, 21)}<radialGradient id="bk"><stop offset="0" stop-color="#fff7c0" stop-opacity="0.8"/><stop offset="1" stop-color="#fff7c0" stop-opacity="0"/></radialGradient></defs>
        <rect width="256" height="256" fill="#2b4a1e"/><rect width="256" height="256" filter="url(#fol)" opacity="0.5"/>
        ${[[60, 70], [170, 60], [200, 200], [40, 210]].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="26" fill="url(#bk)"/>`).join('')}
        <path d="M40 220 C60 120 150 60 230 40 C200 120 140 200 40 220 Z" fill="#6fa83a"/>
        <path d="M40 220 C100 160 160 100 230 40" stroke="#d7efb0" stroke-width="2.5" fill="none"/>
        ${Array.from({ length: 9 }, (_, i) => {
          const t = 0.15 + i * 0.09;
          const x = 40 + 190 * t;
          const y = 220 - 180 * t;
          return `<path d="M${x} ${y} l${18 - i} ${-4 - i}" stroke="#c6e59a" stroke-width="1.2"/><path d="M${x} ${y} l${-4 - i} ${-16 + i}" stroke="#c6e59a" stroke-width="1.2"/>`;
        }).join('')}</svg>`;
    default: // fabric / texture: fine stripes, checker, noise
      return `${open}<defs>${noise('fab', 0.5, 2, 33, 'turbulence')}<pattern id="st" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(30)"><rect width="3" height="6" fill="#8b2635"/><rect x="3" width="3" height="6" fill="#d9c5a0"/></pattern><pattern id="ck" width="16" height="16" patternUnits="userSpaceOnUse"><rect width="8" height="8" fill="#223"/><rect x="8" y="8" width="8" height="8" fill="#223"/><rect x="8" width="8" height="8" fill="#ddd"/><rect y="8" width="8" height="8" fill="#ddd"/></pattern></defs>
        <rect width="256" height="128" fill="url(#st)"/><rect y="128" width="128" height="128" fill="url(#ck)"/><rect x="128" y="128" width="128" height="128" fill="#7a6a55"/>
        <rect width="256" height="256" filter="url(#fab)" opacity="0.25"/><circle cx="192" cy="192" r="40" fill="none" stroke="#fff" stroke-width="3"/></svg>`;
  }
}

export const SCENE_NAMES = ['landscape', 'portrait', 'city', 'poster', 'leaf', 'fabric'];

/** Renders scene `kind` at w x h with light sensor noise. */
export async function scene(kind: number, w: number, h: number): Promise<RawImage> {
  const { data, info } = await sharp(Buffer.from(svgScene(kind, w, h))).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let seed = 1234 + kind;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const g = (rnd() + rnd() + rnd() - 1.5) * 3; // ~N(0, 1.5)
    out[i] = Math.max(0, Math.min(255, Math.round(data[i] + g)));
  }
  return { data: out, width: info.width, height: info.height, channels: 3 };
}
