/**
 * Framing that reads the picture: 'straighten' measures the tilt from the
 * dominant near-horizontal and near-vertical edges, 'center the subject'
 * crops so the subject's centre sits in the middle.
 */
import { maskBox } from './segmentation.js';
import { rawSharp, shrunkRgb, toRgba, type Mask, type Rgba } from './rgba.js';

/** The largest tilt 'straighten' corrects on its own; past this the picture is taken as meant so. */
export const MAX_AUTO_TILT = 15;

/**
 * The tilt in degrees (positive: the picture's lines rise to the right, as if the
 * camera was rolled counter-clockwise). A magnitude-weighted histogram of edge
 * directions folded onto [-45°, 45°) around the nearest axis; the peak within
 * ±15° is the tilt. 0 when no clear lines are found.
 */
export async function measureTilt(img: Rgba): Promise<number> {
  const { pipeline, width: w, height: h } = shrunkRgb(img, 512, 3);
  const data = await pipeline.greyscale().blur(0.8).raw().toBuffer();
  const BIN = 0.25;
  const bins = new Float64Array(Math.round((2 * MAX_AUTO_TILT) / BIN) + 1);
  let total = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = data[i - w + 1]! + 2 * data[i + 1]! + data[i + w + 1]! - data[i - w - 1]! - 2 * data[i - 1]! - data[i + w - 1]!;
      const gy = data[i + w - 1]! + 2 * data[i + w]! + data[i + w + 1]! - data[i - w - 1]! - 2 * data[i - w]! - data[i - w + 1]!;
      const mag = Math.hypot(gx, gy);
      if (mag < 60) continue;
      // The edge runs perpendicular to the gradient; fold its angle onto the nearest axis.
      let a = (Math.atan2(gy, gx) * 180) / Math.PI + 90;
      a = ((((a + 45) % 90) + 90) % 90) - 45;
      if (Math.abs(a) > MAX_AUTO_TILT) continue;
      bins[Math.round((a + MAX_AUTO_TILT) / BIN)]! += mag;
      total += mag;
    }
  }
  if (total === 0) return 0;
  // Smooth over ±0.75° and take the peak.
  let best = 0;
  let bestAt = 0;
  for (let k = 0; k < bins.length; k++) {
    let s = 0;
    for (let d = -3; d <= 3; d++) s += bins[k + d] ?? 0;
    if (s > best) {
      best = s;
      bestAt = k;
    }
  }
  // Edges in image coordinates (y down): a line rising to the right has a negative folded angle.
  const tilt = -(bestAt * BIN - MAX_AUTO_TILT);
  return Math.abs(tilt) < 0.2 ? 0 : Math.round(tilt * 100) / 100;
}

/** The largest axis-aligned rectangle inside a w x h rectangle rotated by `degrees`. */
export function innerRect(w: number, h: number, degrees: number): { width: number; height: number } {
  const a = Math.abs((degrees * Math.PI) / 180);
  const sin = Math.sin(a);
  const cos = Math.cos(a);
  const long = Math.max(w, h);
  const short = Math.min(w, h);
  let wr: number;
  let hr: number;
  if (short <= 2 * sin * cos * long || Math.abs(sin - cos) < 1e-10) {
    const x = 0.5 * short;
    [wr, hr] = w >= h ? [x / sin, x / cos] : [x / cos, x / sin];
  } else {
    const cos2 = cos * cos - sin * sin;
    wr = (w * cos - h * sin) / cos2;
    hr = (h * cos - w * sin) / cos2;
  }
  return { width: Math.max(1, Math.floor(wr)), height: Math.max(1, Math.floor(hr)) };
}

/** Rotates by the tilt (measured when not given) and crops away the empty corners. */
export async function straighten(img: Rgba, degrees?: number): Promise<{ img: Rgba; degrees: number }> {
  const tilt = degrees ?? (await measureTilt(img));
  if (tilt === 0) return { img, degrees: 0 };
  // sharp rotates clockwise for positive angles; a picture whose lines rise to the right needs a clockwise turn.
  const rotated = await toRgba(rawSharp(img).rotate(tilt, { background: { r: 0, g: 0, b: 0, alpha: 0 } }));
  const inner = innerRect(img.width, img.height, tilt);
  const left = Math.max(0, Math.floor((rotated.width - inner.width) / 2));
  const top = Math.max(0, Math.floor((rotated.height - inner.height) / 2));
  const out = await toRgba(rawSharp(rotated).extract({ left, top, width: Math.min(inner.width, rotated.width - left), height: Math.min(inner.height, rotated.height - top) }));
  return { img: out, degrees: tilt };
}

/**
 * The largest crop with the picture's own aspect ratio whose centre is the subject's
 * centre, kept to at least half the picture's width and height and never cutting
 * into the subject's box when it can be avoided.
 */
export async function centerSubject(img: Rgba, subject: Mask): Promise<Rgba> {
  const box = maskBox(subject);
  if (!box) return img;
  const { width: W, height: H } = img;
  const halfW = Math.min(box.cx, W - box.cx);
  const halfH = Math.min(box.cy, H - box.cy);
  let scale = Math.min((2 * halfW) / W, (2 * halfH) / H);
  // Keep the whole subject when it is wider than what centring would leave.
  const needW = (2 * Math.max(box.cx - box.left, box.right - box.cx)) / W;
  const needH = (2 * Math.max(box.cy - box.top, box.bottom - box.cy)) / H;
  scale = Math.max(scale, Math.min(1, Math.max(needW, needH)), 0.5);
  const cw = Math.min(W, Math.round(W * scale));
  const ch = Math.min(H, Math.round(H * scale));
  if (cw >= W - 1 && ch >= H - 1) return img;
  const left = Math.round(Math.min(W - cw, Math.max(0, box.cx - cw / 2)));
  const top = Math.round(Math.min(H - ch, Math.max(0, box.cy - ch / 2)));
  return toRgba(rawSharp(img).extract({ left, top, width: cw, height: ch }));
}
