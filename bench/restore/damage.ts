/**
 * The damage people bring, applied to a clean photo (deterministic by seed):
 * - jpeg10 / jpeg20 / jpeg40: a baseline JPEG at that quality (standard
 *   tables, 4:2:0 chroma), as saved by an app or a messenger;
 * - print: a scanned print: lens/paper blur (Gaussian 1 px), film grain
 *   (mostly luminance, slightly clumped), then JPEG 40;
 * - noise15 / noise25: white Gaussian sensor noise of that sigma, PNG;
 * - lowlight: exposure cut to 12 % in linear light with shot and read
 *   noise, 8-bit PNG;
 * - motion: a mild camera shake (a 5 px line at a random angle), light
 *   noise, saved as a phone JPEG (quality 92);
 * - clean: the photo as a good JPEG (quality 95): nothing to repair.
 * Shared by bench/restore and the restore tests.
 */
import sharp from 'sharp';
import type { RawImage } from '../../src/server/providers/ai/local/resample.js';

export const FAMILIES = ['jpeg10', 'jpeg20', 'jpeg40', 'print', 'noise15', 'noise25', 'lowlight', 'motion', 'clean'] as const;
export type Family = (typeof FAMILIES)[number];

export interface Damaged {
  /** The file a user would upload. */
  file: Buffer;
  contentType: 'image/jpeg' | 'image/png';
  /** That file decoded (what the metrics of the input use). */
  pixels: RawImage;
}

function gaussian(seed: number): () => number {
  let s = seed >>> 0 || 1;
  const u = () => ((s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) + 1) / 0x80000001;
  return () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
}

const clamp = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));

/** 2-D convolution of each channel with a small normalised kernel (edges clamped), in float. */
function convolve(img: RawImage, k: Float64Array, r: number): Float64Array {
  const { width: w, height: h, data } = img;
  const out = new Float64Array(w * h * 3);
  const side = 2 * r + 1;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let j = -r; j <= r; j++) {
          const yy = Math.min(h - 1, Math.max(0, y + j));
          for (let i = -r; i <= r; i++) {
            const kv = k[(j + r) * side + i + r];
            if (kv) s += kv * data[(yy * w + Math.min(w - 1, Math.max(0, x + i))) * 3 + c];
          }
        }
        out[(y * w + x) * 3 + c] = s;
      }
  return out;
}

function gaussianKernel(sigma: number): { k: Float64Array; r: number } {
  const r = Math.ceil(3 * sigma);
  const side = 2 * r + 1;
  const k = new Float64Array(side * side);
  let sum = 0;
  for (let j = -r; j <= r; j++) for (let i = -r; i <= r; i++) sum += k[(j + r) * side + i + r] = Math.exp(-(i * i + j * j) / (2 * sigma * sigma));
  return { k: k.map((v) => v / sum), r };
}

/** A straight camera-shake path of `length` px at `angle` radians, antialiased by supersampling. */
function motionKernel(length: number, angle: number): { k: Float64Array; r: number } {
  const r = Math.ceil(length / 2) + 1;
  const side = 2 * r + 1;
  const k = new Float64Array(side * side);
  const steps = 64;
  for (let s = 0; s <= steps; s++) {
    const t = (s / steps - 0.5) * length;
    const x = t * Math.cos(angle) + r;
    const y = t * Math.sin(angle) + r;
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const fx = x - x0;
    const fy = y - y0;
    k[y0 * side + x0] += (1 - fx) * (1 - fy);
    k[y0 * side + x0 + 1] += fx * (1 - fy);
    k[(y0 + 1) * side + x0] += (1 - fx) * fy;
    k[(y0 + 1) * side + x0 + 1] += fx * fy;
  }
  const sum = k.reduce((a, b) => a + b, 0);
  return { k: k.map((v) => v / sum), r };
}

async function asJpeg(rgb: Uint8Array, w: number, h: number, quality: number): Promise<Damaged> {
  const file = await sharp(rgb, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality, chromaSubsampling: '4:2:0', mozjpeg: false })
    .toBuffer();
  return { file, contentType: 'image/jpeg', pixels: await decode(file) };
}

async function asPng(rgb: Uint8Array, w: number, h: number): Promise<Damaged> {
  const file = await sharp(rgb, { raw: { width: w, height: h, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
  return { file, contentType: 'image/png', pixels: { data: rgb, width: w, height: h, channels: 3 } };
}

export async function decode(file: Buffer): Promise<RawImage> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}

export async function damage(ref: RawImage, family: Family, seed: number): Promise<Damaged> {
  const { width: w, height: h } = ref;
  const n = w * h;
  const g = gaussian(seed * 7919 + 13);
  const out = new Uint8Array(n * 3);
  switch (family) {
    case 'jpeg10':
    case 'jpeg20':
    case 'jpeg40':
      return asJpeg(ref.data, w, h, Number(family.slice(4)));
    case 'clean':
      return asJpeg(ref.data, w, h, 95);
    case 'noise15':
    case 'noise25': {
      const sigma = Number(family.slice(5));
      for (let i = 0; i < n * 3; i++) out[i] = clamp(ref.data[i] + sigma * g());
      return asPng(out, w, h);
    }
    case 'print': {
      const { k, r } = gaussianKernel(1);
      const blurred = convolve(ref, k, r);
      // Grain: luminance noise clumped by a 0.7 px blur, rescaled to sigma 6, plus a little colour noise.
      const white: RawImage = { data: new Uint8Array(n * 3), width: w, height: h, channels: 3 };
      for (let i = 0; i < n; i++) {
        const v = clamp(128 + 40 * g());
        white.data[i * 3] = white.data[i * 3 + 1] = white.data[i * 3 + 2] = v;
      }
      const gk = gaussianKernel(0.7);
      const clumped = convolve(white, gk.k, gk.r);
      let ss = 0;
      for (let i = 0; i < n; i++) ss += (clumped[i * 3] - 128) ** 2;
      const scale = 6 / Math.sqrt(ss / n);
      for (let i = 0; i < n; i++) {
        const grain = (clumped[i * 3] - 128) * scale;
        for (let c = 0; c < 3; c++) out[i * 3 + c] = clamp(blurred[i * 3 + c] + grain + 1.5 * g());
      }
      return asJpeg(out, w, h, 40);
    }
    case 'lowlight': {
      for (let i = 0; i < n * 3; i++) {
        const lin = (ref.data[i] / 255) ** 2.2 * 0.12;
        const noisy = Math.max(0, lin + Math.sqrt(0.0004 * lin + 0.00001) * g());
        out[i] = clamp(255 * noisy ** (1 / 2.2));
      }
      return asPng(out, w, h);
    }
    case 'motion': {
      const { k, r } = motionKernel(5, ((seed * 47) % 180) * (Math.PI / 180));
      const blurred = convolve(ref, k, r);
      for (let i = 0; i < n * 3; i++) out[i] = clamp(blurred[i] + 2 * g());
      return asJpeg(out, w, h, 92);
    }
  }
}
