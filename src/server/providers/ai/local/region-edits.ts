/**
 * Edits confined to a part of the picture: the background, the subject, the
 * sky or the face, each through a soft mask (segmentation.ts) so the change
 * fades in over the mask's edge.
 */
import type { RegionAction } from '../../../../shared/edit-language/steps.js';
import { applyLook } from './looks.js';
import { mix, rawSharp, toRgba, type Mask, type Rgba } from './rgba.js';

function perPixel(img: Rgba, f: (r: number, g: number, b: number) => [number, number, number]): Rgba {
  const out = Buffer.from(img.data);
  const c = new Uint8ClampedArray(out.buffer, out.byteOffset, out.length);
  for (let i = 0; i < c.length; i += 4) {
    const [r, g, b] = f(img.data[i]!, img.data[i + 1]!, img.data[i + 2]!);
    c[i] = r;
    c[i + 1] = g;
    c[i + 2] = b;
  }
  return { ...img, data: out };
}

/**
 * Blurs only what the mask keeps (weight 1), without the rest bleeding in: the
 * weighted picture and the weights are blurred alike and divided (normalized convolution).
 */
async function maskedBlur(img: Rgba, keep: Mask, sigma: number): Promise<Rgba> {
  const n = keep.data.length;
  const weighted = Buffer.alloc(n * 4);
  const weights = Buffer.alloc(n * 4);
  for (let p = 0, i = 0; p < n; p++, i += 4) {
    const w = keep.data[p]!;
    weighted[i] = img.data[i]! * w;
    weighted[i + 1] = img.data[i + 1]! * w;
    weighted[i + 2] = img.data[i + 2]! * w;
    weighted[i + 3] = 255;
    weights[i] = weights[i + 1] = weights[i + 2] = w * 255;
    weights[i + 3] = 255;
  }
  // The same blur for both, so their ratio is a true weighted average.
  const [num, den] = await Promise.all([toRgba(rawSharp({ ...img, data: weighted }).blur(sigma)), toRgba(rawSharp({ ...img, data: weights }).blur(sigma))]);
  const out = Buffer.from(img.data);
  const c = new Uint8ClampedArray(out.buffer, out.byteOffset, out.length);
  for (let p = 0, i = 0; p < n; p++, i += 4) {
    const d = den.data[i]! / 255;
    if (d < 0.02) continue;
    c[i] = num.data[i]! / d;
    c[i + 1] = num.data[i + 1]! / d;
    c[i + 2] = num.data[i + 2]! / d;
  }
  return { ...img, data: out };
}

function hexRgb(hex: string): [number, number, number] {
  const v = parseInt(hex.slice(1, 7), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** Applies one region action where `m` is 1. */
export async function editRegion(img: Rgba, m: Mask, action: RegionAction, strength: number, color?: string): Promise<Rgba> {
  const k = Math.min(2, Math.max(0.25, strength));
  switch (action) {
    case 'remove': {
      // The region becomes transparent (the PNG keeps the rest); alpha multiplies any alpha already there.
      const out = Buffer.from(img.data);
      for (let p = 0, i = 3; p < m.data.length; p++, i += 4) out[i] = Math.round(img.data[i]! * (1 - m.data[p]!));
      return { ...img, data: out };
    }
    case 'fill': {
      const [r, g, b] = hexRgb(color ?? '#ffffff');
      return mix(img, perPixel(img, () => [r, g, b]), m);
    }
    case 'blur': {
      // Blur the region from its own pixels only, so the subject does not smear into it.
      const sigma = Math.max(2, (Math.min(img.width, img.height) / 90) * k);
      return mix(img, await maskedBlur(img, m, sigma), m);
    }
    case 'grayscale':
      return mix(img, perPixel(img, (r, g, b) => {
        const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        return [y, y, y];
      }), m);
    case 'brighten': {
      const f = 1 + 0.3 * k;
      // Lift shadows more than highlights (a gamma), so a lit face does not clip.
      const gamma = 1 / f;
      return mix(img, perPixel(img, (r, g, b) => [255 * Math.pow(r / 255, gamma), 255 * Math.pow(g / 255, gamma), 255 * Math.pow(b / 255, gamma)]), m);
    }
    case 'darken': {
      const f = 1 - 0.25 * k;
      return mix(img, perPixel(img, (r, g, b) => [r * f, g * f, b * f]), m);
    }
    case 'desaturate':
    case 'saturate': {
      const f = action === 'saturate' ? 1 + 0.35 * k : Math.max(0, 1 - 0.5 * k);
      return mix(img, perPixel(img, (r, g, b) => {
        const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        return [y + (r - y) * f, y + (g - y) * f, y + (b - y) * f];
      }), m);
    }
    case 'dramatic': {
      // Deeper, more contrasty, richer: a darker gamma, an S-curve and more colour.
      const edited = perPixel(img, (r, g, b) => {
        const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        const f = 1.35;
        const sr = y + (r - y) * f;
        const sg = y + (g - y) * f;
        const sb = y + (b - y) * f;
        const curve = (v: number) => {
          const t = Math.max(0, Math.min(1, v / 255));
          const g2 = Math.pow(t, 1.35);
          return (g2 + 0.5 * g2 * (1 - g2) * (2 * g2 - 1)) * 255;
        };
        return [curve(sr), curve(sg), curve(sb)];
      });
      return mix(img, edited, { ...m, data: m.data.map((v) => Math.min(1, v * k)) });
    }
    case 'blue':
      return mix(img, perPixel(img, (r, g, b) => [r * (1 - 0.15 * k), g * (1 - 0.05 * k), Math.min(255, b * (1 + 0.15 * k) + 8 * k)]), m);
    case 'warm':
      return mix(img, perPixel(img, (r, g, b) => [r * (1 + 0.12 * k) + 6 * k, g * (1 + 0.03 * k), b * (1 - 0.15 * k)]), m);
    case 'cool':
      return mix(img, perPixel(img, (r, g, b) => [r * (1 - 0.1 * k), g, b * (1 + 0.1 * k)]), m);
    case 'pop': {
      const popped = await applyLook(img, 'pop', k);
      return mix(img, popped, m);
    }
    case 'smooth': {
      const sigma = Math.max(1, (Math.min(img.width, img.height) / 250) * k);
      const soft = await toRgba(rawSharp(img).blur(sigma));
      // Keep some texture: 70 % of the way to the smooth copy.
      return mix(img, soft, { ...m, data: m.data.map((v) => v * 0.7) });
    }
  }
}

