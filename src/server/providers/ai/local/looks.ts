/**
 * The editor's looks ('vintage', 'moody', 'pencil sketch', ...), vignette and
 * grain, as tone curves, colour matrices and a few sharp passes on RGBA.
 * `strength` 0.5 / 1 / 2 comes from 'a bit' / nothing / 'very'.
 */
import type { LookName } from '../../../../shared/edit-language/steps.js';
import { luma, rawSharp, toRgba, type Rgba } from './rgba.js';

type Pixel = (r: number, g: number, b: number, x: number, y: number) => [number, number, number];

/** Applies a per-pixel function (0..255 floats in and out, clamped), alpha untouched. */
function perPixel(img: Rgba, f: Pixel): Rgba {
  const out = Buffer.from(img.data);
  const c = new Uint8ClampedArray(out.buffer, out.byteOffset, out.length);
  const { width } = img;
  for (let p = 0, i = 0; i < c.length; p++, i += 4) {
    const [r, g, b] = f(img.data[i]!, img.data[i + 1]!, img.data[i + 2]!, p % width, (p / width) | 0);
    c[i] = r;
    c[i + 1] = g;
    c[i + 2] = b;
  }
  return { ...img, data: out };
}

/** Blends the edited picture back toward the original: strength 1 = as edited, 0.5 = halfway, 2 = stronger. */
function withStrength(orig: Rgba, edited: Rgba, strength: number): Rgba {
  if (Math.abs(strength - 1) < 1e-3) return edited;
  const t = Math.min(2, Math.max(0, strength));
  return perPixel(orig, (r, g, b, x, y) => {
    const i = (y * orig.width + x) * 4;
    return [r + (edited.data[i]! - r) * t, g + (edited.data[i + 1]! - g) * t, b + (edited.data[i + 2]! - b) * t];
  });
}

const sCurve = (v: number, k: number) => {
  const t = v / 255;
  const s = t + k * t * (1 - t) * (2 * t - 1) * 2;
  return s * 255;
};

function saturate(r: number, g: number, b: number, f: number): [number, number, number] {
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return [y + (r - y) * f, y + (g - y) * f, y + (b - y) * f];
}

/** Darkens toward the corners: 1 - strength * (radius^2 shaped). */
export function vignette(img: Rgba, strength: number): Rgba {
  const cx = (img.width - 1) / 2;
  const cy = (img.height - 1) / 2;
  const k = 0.55 * Math.min(2, strength);
  return perPixel(img, (r, g, b, x, y) => {
    const dx = (x - cx) / (cx || 1);
    const dy = (y - cy) / (cy || 1);
    const d = Math.min(1.5, (dx * dx + dy * dy) / 2);
    const f = 1 - k * Math.pow(d, 1.4);
    return [r * f, g * f, b * f];
  });
}

/** Film grain: luminance noise, stronger in the mid-tones; seeded so a run is repeatable. */
export function grain(img: Rgba, strength: number, seed = 12345): Rgba {
  let s = seed >>> 0;
  const rand = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
  const amp = 14 * Math.min(2, strength);
  return perPixel(img, (r, g, b) => {
    const n = (rand() + rand() + rand() - 1.5) * amp;
    const y = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    const w = 0.4 + 2.4 * y * (1 - y);
    return [r + n * w, g + n * w, b + n * w];
  });
}

/** Fades the blacks and softens the whites. */
function fade(img: Rgba, lift: number, roll: number): Rgba {
  return perPixel(img, (r, g, b) => [lift + r * (1 - (lift + roll) / 255), lift + g * (1 - (lift + roll) / 255), lift + b * (1 - (lift + roll) / 255)]);
}

async function pencilSketch(img: Rgba, strength: number): Promise<Rgba> {
  const gray = perPixel(img, (r, g, b) => {
    const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    return [y, y, y];
  });
  const sigma = Math.max(2, Math.min(img.width, img.height) / 120) * (strength > 1.3 ? 1.5 : 1);
  const blurredInverse = await toRgba(rawSharp(perPixel(gray, (r) => [255 - r, 255 - r, 255 - r])).blur(sigma));
  // Colour dodge of the grey by its blurred negative: edges become pencil lines, flat areas paper.
  return perPixel(gray, (r, _g, _b, x, y) => {
    const i = (y * img.width + x) * 4;
    const inv = blurredInverse.data[i]!;
    const v = inv >= 255 ? 255 : Math.min(255, (r * 255) / (255 - inv));
    const line = Math.pow(v / 255, 2.2) * 255;
    return [line, line, line];
  });
}

async function painting(img: Rgba, strength: number): Promise<Rgba> {
  const size = Math.max(3, Math.min(11, Math.round(Math.min(img.width, img.height) / 110) | 1)) + (strength > 1.3 ? 2 : 0);
  // Median flattens fine texture into patches of colour; a slight sharpen outlines them like strokes.
  const flat = await toRgba(rawSharp(img).median(size | 1).sharpen({ sigma: 1.2, m1: 0.5, m2: 2 }));
  return perPixel(flat, (r, g, b) => {
    const [sr, sg, sb] = saturate(r, g, b, 1.25);
    return [sCurve(sr, 0.15), sCurve(sg, 0.15), sCurve(sb, 0.15)];
  });
}

async function clarity(img: Rgba, amount: number): Promise<Rgba> {
  const sigma = Math.max(2, Math.min(img.width, img.height) / 60);
  const blurred = await toRgba(rawSharp(img).blur(sigma));
  return perPixel(img, (r, g, b, x, y) => {
    const i = (y * img.width + x) * 4;
    return [r + (r - blurred.data[i]!) * amount, g + (g - blurred.data[i + 1]!) * amount, b + (b - blurred.data[i + 2]!) * amount];
  });
}

async function glow(img: Rgba, strength: number): Promise<Rgba> {
  const sigma = Math.max(3, Math.min(img.width, img.height) / 40);
  const blurred = await toRgba(rawSharp(img).blur(sigma));
  const a = 0.45 * Math.min(2, strength);
  return perPixel(img, (r, g, b, x, y) => {
    const i = (y * img.width + x) * 4;
    // Screen blend of the soft copy: highlights bloom, shadows stay.
    const sc = (u: number, v: number) => 255 - ((255 - u) * (255 - v)) / 255;
    return [r + (sc(r, blurred.data[i]!) - r) * a, g + (sc(g, blurred.data[i + 1]!) - g) * a, b + (sc(b, blurred.data[i + 2]!) - b) * a];
  });
}

export async function applyLook(img: Rgba, name: LookName, strength: number): Promise<Rgba> {
  let out: Rgba;
  switch (name) {
    case 'vintage': {
      out = perPixel(img, (r, g, b) => {
        const [sr, sg, sb] = saturate(r, g, b, 0.7);
        return [sr * 1.06 + 8, sg * 1.0 + 4, sb * 0.85];
      });
      out = vignette(grain(fade(out, 28, 18), 0.6), 0.7);
      break;
    }
    case 'old-photo': {
      out = perPixel(img, (r, g, b) => {
        const y = luma(Buffer.from([r, g, b]), 0);
        return [y * 1.07 + 12, y * 0.95 + 6, y * 0.78];
      });
      out = await toRgba(rawSharp(out).blur(Math.max(0.5, Math.min(img.width, img.height) / 700)));
      out = vignette(grain(fade(out, 30, 25), 0.9), 1.1);
      break;
    }
    case 'moody': {
      out = perPixel(img, (r, g, b) => {
        const [sr, sg, sb] = saturate(r, g, b, 0.75);
        const y = (0.2126 * sr + 0.7152 * sg + 0.0722 * sb) / 255;
        // Darker, with cool shadows.
        const cool = (1 - y) * 10;
        return [sCurve(sr * 0.82, 0.25) - cool, sCurve(sg * 0.84, 0.25), sCurve(sb * 0.86, 0.25) + cool];
      });
      out = vignette(out, 0.8);
      break;
    }
    case 'cinematic': {
      // Teal shadows, orange highlights, a gentle S-curve.
      out = perPixel(img, (r, g, b) => {
        const y = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        const sh = (1 - y) * 18;
        const hi = y * 16;
        return [sCurve(r - sh + hi, 0.2), sCurve(g + sh * 0.3 + hi * 0.35, 0.2), sCurve(b + sh - hi * 0.9, 0.2)];
      });
      out = vignette(out, 0.5);
      break;
    }
    case 'film': {
      out = perPixel(img, (r, g, b) => {
        const [sr, sg, sb] = saturate(r, g, b, 0.9);
        return [sCurve(sr + 4, 0.15), sCurve(sg + 2, 0.15), sCurve(sb - 2, 0.15)];
      });
      out = grain(fade(out, 14, 10), 0.8);
      break;
    }
    case 'sketch':
      return pencilSketch(img, strength);
    case 'painting':
      return painting(img, strength);
    case 'hdr': {
      const local = await toRgba(rawSharp(img).clahe({ width: Math.max(8, Math.round(img.width / 8)), height: Math.max(8, Math.round(img.height / 8)), maxSlope: 3 }));
      out = await clarity(local, 0.6);
      out = perPixel(out, (r, g, b) => saturate(r, g, b, 1.15));
      break;
    }
    case 'matte':
      out = perPixel(fade(img, 32, 12), (r, g, b) => saturate(r, g, b, 0.85));
      break;
    case 'pop': {
      out = await clarity(img, 0.35);
      out = perPixel(out, (r, g, b) => {
        const [sr, sg, sb] = saturate(r, g, b, 1.3);
        return [sCurve(sr, 0.2), sCurve(sg, 0.2), sCurve(sb, 0.2)];
      });
      break;
    }
    case 'dramatic': {
      out = await clarity(img, 0.8);
      out = perPixel(out, (r, g, b) => {
        const [sr, sg, sb] = saturate(r, g, b, 0.8);
        return [sCurve(sr * 0.92, 0.35), sCurve(sg * 0.92, 0.35), sCurve(sb * 0.92, 0.35)];
      });
      out = vignette(out, 0.8);
      break;
    }
    case 'noir': {
      out = perPixel(img, (r, g, b) => {
        const y = sCurve(sCurve(0.2126 * r + 0.7152 * g + 0.0722 * b, 0.4), 0.3);
        return [y, y, y];
      });
      out = vignette(out, 1);
      break;
    }
    case 'dreamy': {
      out = await glow(img, 1);
      out = perPixel(out, (r, g, b) => [r * 0.95 + 12, g * 0.95 + 10, b * 0.95 + 12]);
      break;
    }
  }
  return withStrength(img, out, strength);
}
