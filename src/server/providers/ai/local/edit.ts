/**
 * The local editor: the request as read by interpretEdit (plain language over
 * the command language of edit-commands.ts) applied step by step, each as its
 * own pass over raw RGBA (sharp itself reorders the operations of one
 * pipeline), after EXIF orientation. Looks, framing and region edits run in
 * language-ops.ts.
 */
import sharp from 'sharp';
import { join } from 'node:path';
import type { LocalMedia, RunContext } from '../ai-provider.js';
import type { EditHookInput, EditHookOutput } from '../../../../tools/fal-image-editor/hook.js';
import { ProviderError } from '../ai-provider.js';
import type { EditOp, Position } from '../../../../shared/edit-commands.js';
import { interpretEdit } from '../../../../shared/edit-language/interpret.js';
import type { LanguageOp } from '../../../../shared/edit-language/steps.js';
import { applyLanguageOp, MaskCache } from './language-ops.js';
import { rawSharp, toRgba, type Rgba } from './rgba.js';
import { LIMIT_INPUT_PIXELS, outputTypeFor } from './image-io.js';
import { resize } from './resample.js';
import { decodeError, extFor, mp, throwIfAborted } from './util.js';

export const MAX_EDIT_PIXELS = 4096 * 4096;
const MAX_SIDE = 8192;

const raw = rawSharp;

function checkSize(w: number, h: number): void {
  // Name the limit that was crossed: a long thin result is refused by its side, not its area.
  if (w > MAX_SIDE || h > MAX_SIDE) {
    throw new ProviderError(`The edited image would be ${w}x${h}; the editor makes images up to ${MAX_SIDE} px on a side.`);
  }
  if (w * h > MAX_EDIT_PIXELS) {
    throw new ProviderError(`The edited image would be ${w}x${h} (${mp(w, h)}); the editor makes images up to ${mp(4096, 4096)}.`);
  }
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** An SVG (the image's size) with the text laid out; the text is XML-escaped. */
export function textSvg(
  text: string,
  width: number,
  height: number,
  position: Position,
  color: string,
  size: 'small' | 'medium' | 'large' | number,
): string {
  const base = Math.min(width, height);
  let fs = typeof size === 'number' ? size : base * (size === 'small' ? 0.06 : size === 'large' ? 0.16 : 0.1);
  // Keep it on the image: roughly 0.6 em per character.
  const chars = Math.max(1, Array.from(text).length);
  fs = Math.max(6, Math.min(fs, (width * 0.92) / (chars * 0.6)));
  const pad = Math.max(4, Math.round(base * 0.04));
  const [v, h] = position.includes('-') ? (position.split('-') as [string, string]) : [position, 'center'];
  const x = h === 'left' ? pad : h === 'right' ? width - pad : width / 2;
  const anchor = h === 'left' ? 'start' : h === 'right' ? 'end' : 'middle';
  const y = v === 'top' ? pad + fs * 0.8 : v === 'center' ? height / 2 + fs * 0.35 : height - pad - fs * 0.2;
  const stroke = /^#(?:f|e|d|c)/i.test(color) ? '#000000' : '#ffffff';
  const sw = Math.max(1, fs / 14);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-weight="bold" font-size="${fs.toFixed(1)}" ` +
    `text-anchor="${anchor}" fill="${color}" stroke="${stroke}" stroke-width="${sw.toFixed(1)}" paint-order="stroke" stroke-linejoin="round">` +
    `${xmlEscape(text)}</text></svg>`
  );
}

function hexRgb(hex: string): { r: number; g: number; b: number } {
  const n = parseInt(hex.slice(1, 7), 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
}

function isCommand(op: EditOp | LanguageOp): op is EditOp {
  return !['look', 'vignette', 'grain', 'straighten', 'center-subject', 'region'].includes(op.type);
}

async function applyOp(img: Rgba, op: EditOp): Promise<Rgba> {
  const { width: w, height: h } = img;
  switch (op.type) {
    case 'resize': {
      let tw: number;
      let th: number;
      if (op.factor !== undefined) {
        tw = Math.max(1, Math.round(w * op.factor));
        th = Math.max(1, Math.round(h * op.factor));
      } else if (op.width !== undefined && op.height !== undefined) {
        const f = Math.min(op.width / w, op.height / h);
        tw = Math.max(1, Math.round(w * f));
        th = Math.max(1, Math.round(h * f));
      } else if (op.width !== undefined) {
        tw = op.width;
        th = Math.max(1, Math.round((h * op.width) / w));
      } else {
        th = op.height!;
        tw = Math.max(1, Math.round((w * th) / h));
      }
      checkSize(tw, th);
      if (tw === w && th === h) return img;
      if (tw <= w && th <= h) return toRgba(raw(img).resize(tw, th, { fit: 'fill', kernel: 'lanczos3' }));
      // Enlarging: our pixel-centre-aligned Lanczos (sharp's is shifted).
      const r = resize({ data: img.data, width: w, height: h, channels: 4 }, tw, th, 'lanczos3');
      return { data: Buffer.from(r.data.buffer, r.data.byteOffset, r.data.length), width: tw, height: th };
    }
    case 'rotate': {
      if (op.degrees === 0) return img;
      const rad = (op.degrees * Math.PI) / 180;
      const nw = Math.ceil(Math.abs(w * Math.cos(rad)) + Math.abs(h * Math.sin(rad)));
      const nh = Math.ceil(Math.abs(w * Math.sin(rad)) + Math.abs(h * Math.cos(rad)));
      checkSize(nw, nh);
      return toRgba(raw(img).rotate(op.degrees, { background: { r: 0, g: 0, b: 0, alpha: 0 } }));
    }
    case 'flip':
      return toRgba(op.axis === 'horizontal' ? raw(img).flop() : raw(img).flip());
    case 'crop': {
      let cw: number;
      let ch: number;
      if (op.aspect) {
        const [a, b] = op.aspect;
        if (w / h > a / b) {
          ch = h;
          cw = Math.round((h * a) / b);
        } else {
          cw = w;
          ch = Math.round((w * b) / a);
        }
      } else if (op.percent !== undefined) {
        cw = Math.round((w * op.percent) / 100);
        ch = Math.round((h * op.percent) / 100);
      } else {
        cw = Math.min(w, op.width ?? w);
        ch = Math.min(h, op.height ?? h);
      }
      cw = Math.max(1, Math.min(w, cw));
      ch = Math.max(1, Math.min(h, ch));
      if (cw === w && ch === h) return img;
      return toRgba(raw(img).extract({ left: Math.floor((w - cw) / 2), top: Math.floor((h - ch) / 2), width: cw, height: ch }));
    }
    case 'brightness':
      return toRgba(raw(img).modulate({ brightness: Math.max(0.05, 1 + op.percent / 100) }));
    case 'contrast': {
      const a = Math.max(0.1, 1 + op.percent / 100);
      const b = 128 * (1 - a);
      return toRgba(raw(img).linear([a, a, a, 1], [b, b, b, 0]));
    }
    case 'saturation':
      return toRgba(raw(img).modulate({ saturation: Math.max(0, 1 + op.percent / 100) }));
    case 'hue':
      return op.degrees === 0 ? img : toRgba(raw(img).modulate({ hue: op.degrees }));
    case 'temperature': {
      const t = op.percent / 100;
      return toRgba(raw(img).linear([1 + t * 0.6, 1, 1 - t * 0.6, 1], [0, 0, 0, 0]));
    }
    case 'grayscale': {
      const d = Buffer.from(img.data);
      for (let i = 0; i < d.length; i += 4) {
        const y = Math.round(0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2]);
        d[i] = d[i + 1] = d[i + 2] = y;
      }
      return { ...img, data: d };
    }
    case 'sepia':
      return toRgba(
        raw(img).recomb([
          [0.393, 0.769, 0.189],
          [0.349, 0.686, 0.168],
          [0.272, 0.534, 0.131],
        ]),
      );
    case 'tint':
      return toRgba(raw(img).tint(hexRgb(op.color)));
    case 'blur':
      return toRgba(raw(img).blur(Math.min(op.sigma, Math.max(0.3, Math.min(w, h) / 2))));
    case 'sharpen':
      return toRgba(raw(img).sharpen({ sigma: op.sigma }));
    case 'gamma': {
      const lut = new Uint8Array(256);
      for (let v = 0; v < 256; v++) lut[v] = Math.round(255 * Math.pow(v / 255, 1 / op.value));
      const d = Buffer.from(img.data);
      for (let i = 0; i < d.length; i += 4) {
        d[i] = lut[d[i]];
        d[i + 1] = lut[d[i + 1]];
        d[i + 2] = lut[d[i + 2]];
      }
      return { ...img, data: d };
    }
    case 'normalize':
      return toRgba(raw(img).normalise());
    case 'clahe': {
      const tw = Math.max(3, Math.round(w / 8));
      const th = Math.max(3, Math.round(h / 8));
      return toRgba(raw(img).clahe({ width: tw, height: th, maxSlope: 3 }));
    }
    case 'invert':
      return toRgba(raw(img).negate({ alpha: false }));
    case 'text': {
      const svg = textSvg(op.text, w, h, op.position, op.color, op.size);
      return toRgba(raw(img).composite([{ input: Buffer.from(svg, 'utf8'), top: 0, left: 0 }]));
    }
    case 'border': {
      const px = op.px ?? Math.max(4, Math.round(Math.min(w, h) * 0.03));
      const p = Math.min(px, 2000);
      checkSize(w + 2 * p, h + 2 * p);
      const c = hexRgb(op.color);
      return toRgba(raw(img).extend({ top: p, bottom: p, left: p, right: p, background: { ...c, alpha: 1 } }));
    }
  }
}

/** Steps that move pixels: the masks made before them no longer fit. */
const GEOMETRIC = new Set(['resize', 'rotate', 'flip', 'crop', 'border']);

export async function editImage(input: EditHookInput & { image: LocalMedia }, ctx: RunContext): Promise<EditHookOutput> {
  const reading = interpretEdit(input.prompt);
  if (reading.status !== 'ready') throw new ProviderError(reading.message ?? 'The edit could not be understood.');
  const steps = reading.steps;
  throwIfAborted(ctx.signal);
  let img: Rgba;
  let format: string;
  let hadAlpha: boolean;
  try {
    const meta = await sharp(input.image.path, { limitInputPixels: LIMIT_INPUT_PIXELS }).metadata();
    format = meta.format ?? 'png';
    hadAlpha = !!meta.hasAlpha;
    const sw = (meta.orientation ?? 1) >= 5 ? meta.height ?? 0 : meta.width ?? 0;
    const sh = (meta.orientation ?? 1) >= 5 ? meta.width ?? 0 : meta.height ?? 0;
    checkSize(sw, sh);
    img = await toRgba(sharp(input.image.path, { limitInputPixels: LIMIT_INPUT_PIXELS }).rotate().toColourspace('srgb'));
  } catch (e) {
    decodeError(e);
  }
  const masks = new MaskCache();
  for (let i = 0; i < steps.length; i++) {
    throwIfAborted(ctx.signal);
    const { op, label } = steps[i]!;
    ctx.onProgress({ stage: `Applying ${label}`, fraction: 0.05 + (0.85 * i) / steps.length });
    if (isCommand(op)) {
      img = await applyOp(img, op);
      if (GEOMETRIC.has(op.type)) masks.invalidate();
    } else {
      img = await applyLanguageOp(img, op, masks);
      checkSize(img.width, img.height);
    }
  }
  throwIfAborted(ctx.signal);
  ctx.onProgress({ stage: 'Saving', fraction: 0.92 });
  let opaque = true;
  for (let i = 3; i < img.data.length; i += 4)
    if (img.data[i] !== 255) {
      opaque = false;
      break;
    }
  let contentType = outputTypeFor(format, !opaque);
  let s = raw(img);
  if (opaque) s = s.removeAlpha();
  else if (contentType === 'image/jpeg') contentType = 'image/png';
  if (!hadAlpha && !opaque && format === 'jpeg') contentType = 'image/png';
  if (contentType === 'image/jpeg') s = s.jpeg({ quality: 92 });
  else if (contentType === 'image/webp') s = s.webp({ quality: 92 });
  else s = s.png({ compressionLevel: 6 });
  const path = join(ctx.workDir, `edited.${extFor(contentType)}`);
  await s.toFile(path);
  ctx.onProgress({ stage: 'Done', fraction: 1 });
  return {
    path,
    contentType,
    width: img.width,
    height: img.height,
    model: steps.some((s) => s.needs_mask) ? 'local editor (sharp + U²-Net-p segmentation)' : 'local editor (sharp)',
    promptUsed: reading.summary,
  };
}
