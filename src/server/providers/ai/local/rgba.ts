/** A decoded picture as the editor's steps pass it along: 8-bit RGBA, row-major. */
import sharp, { type Sharp } from 'sharp';

export interface Rgba {
  data: Buffer;
  width: number;
  height: number;
}

/** A soft mask at the picture's size: 0 (not in the region) .. 1 (in it). */
export interface Mask {
  data: Float32Array;
  width: number;
  height: number;
}

export function rawSharp(img: Rgba): Sharp {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 4 } });
}

/**
 * The picture shrunk (never enlarged) to at most `longSide` pixels on its longer side and at
 * least `minSide` on each, without its alpha: for measuring a picture at a size that is quick to read.
 */
export function shrunkRgb(img: Rgba, longSide: number, minSide = 1): { pipeline: Sharp; width: number; height: number } {
  const scale = Math.min(1, longSide / Math.max(img.width, img.height));
  const width = Math.max(minSide, Math.round(img.width * scale));
  const height = Math.max(minSide, Math.round(img.height * scale));
  return { pipeline: rawSharp(img).removeAlpha().resize(width, height, { fit: 'fill' }), width, height };
}

export async function toRgba(s: Sharp): Promise<Rgba> {
  const { data, info } = await s.ensureAlpha().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`expected RGBA, got ${info.channels} channels`);
  return { data, width: info.width, height: info.height };
}

/** A one-channel float plane resized bilinearly (pixel centres aligned). */
export function resizePlane(plane: Float32Array, w: number, h: number, tw: number, th: number): Float32Array {
  const out = new Float32Array(tw * th);
  const sx = w / tw;
  const sy = h / th;
  for (let y = 0; y < th; y++) {
    const fy = Math.min(h - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(h - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < tw; x++) {
      const fx = Math.min(w - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(w - 1, x0 + 1);
      const tx = fx - x0;
      const top = plane[y0 * w + x0]! * (1 - tx) + plane[y0 * w + x1]! * tx;
      const bottom = plane[y1 * w + x0]! * (1 - tx) + plane[y1 * w + x1]! * tx;
      out[y * tw + x] = top * (1 - ty) + bottom * ty;
    }
  }
  return out;
}

/** One box-blur pass along rows (stride 1) or columns (stride w), edges clamped. */
function boxPass(src: Float32Array, dst: Float32Array, w: number, h: number, r: number, horizontal: boolean): void {
  const lines = horizontal ? h : w;
  const len = horizontal ? w : h;
  const step = horizontal ? 1 : w;
  const norm = 1 / (2 * r + 1);
  for (let l = 0; l < lines; l++) {
    const base = horizontal ? l * w : l;
    let acc = 0;
    for (let k = -r; k <= r; k++) acc += src[base + Math.min(len - 1, Math.max(0, k)) * step]!;
    for (let i = 0; i < len; i++) {
      dst[base + i * step] = acc * norm;
      acc += src[base + Math.min(len - 1, i + r + 1) * step]! - src[base + Math.max(0, i - r) * step]!;
    }
  }
}

/** A Gaussian-like blur of a float plane (three box passes each way; sigma in pixels). */
export function blurPlane(plane: Float32Array, w: number, h: number, sigma: number): Float32Array {
  if (sigma < 0.3) return plane;
  // Three boxes of radius r approximate a Gaussian of sigma^2 = 3 * ((2r+1)^2 - 1) / 12.
  const r = Math.max(1, Math.round((Math.sqrt(4 * sigma * sigma + 1) - 1) / 2));
  let a = Float32Array.from(plane);
  let b = new Float32Array(plane.length);
  for (let pass = 0; pass < 3; pass++) {
    boxPass(a, b, w, h, r, true);
    [a, b] = [b, a];
    boxPass(a, b, w, h, r, false);
    [a, b] = [b, a];
  }
  return a;
}

/** out = a * (1 - m) + b * m, per pixel (alpha kept from a). */
export function mix(a: Rgba, b: Rgba, m: Mask): Rgba {
  const d = Buffer.from(a.data);
  for (let p = 0, i = 0; p < m.data.length; p++, i += 4) {
    const t = m.data[p]!;
    if (t <= 0) continue;
    d[i] = a.data[i]! + (b.data[i]! - a.data[i]!) * t;
    d[i + 1] = a.data[i + 1]! + (b.data[i + 1]! - a.data[i + 1]!) * t;
    d[i + 2] = a.data[i + 2]! + (b.data[i + 2]! - a.data[i + 2]!) * t;
  }
  return { ...a, data: d };
}

export function invertMask(m: Mask): Mask {
  const d = new Float32Array(m.data.length);
  for (let i = 0; i < d.length; i++) d[i] = 1 - m.data[i]!;
  return { ...m, data: d };
}

/** Rec. 709 luma of pixel i (byte offset), 0..255. */
export function luma(d: Buffer, i: number): number {
  return 0.2126 * d[i]! + 0.7152 * d[i + 1]! + 0.0722 * d[i + 2]!;
}
