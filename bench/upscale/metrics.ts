/** PSNR and SSIM on luma (BT.601 Y, 16..235), the super-resolution convention. */
import type { RawImage } from '../../src/server/providers/ai/local/resample.js';

export function luma(img: RawImage): Float64Array {
  const n = img.width * img.height;
  const y = new Float64Array(n);
  const d = img.data;
  for (let i = 0; i < n; i++) y[i] = 16 + (65.481 * d[i * 3] + 128.553 * d[i * 3 + 1] + 24.966 * d[i * 3 + 2]) / 255;
  return y;
}

function crop(y: Float64Array, w: number, h: number, b: number): { y: Float64Array; w: number; h: number } {
  const cw = w - 2 * b;
  const ch = h - 2 * b;
  const out = new Float64Array(cw * ch);
  for (let r = 0; r < ch; r++) for (let c = 0; c < cw; c++) out[r * cw + c] = y[(r + b) * w + c + b];
  return { y: out, w: cw, h: ch };
}

/** PSNR (dB) of `test` against `ref` on luma, ignoring a `border` of pixels. */
export function psnrY(ref: RawImage, test: RawImage, border: number): number {
  const a = crop(luma(ref), ref.width, ref.height, border).y;
  const b = crop(luma(test), test.width, test.height, border).y;
  let se = 0;
  for (let i = 0; i < a.length; i++) se += (a[i] - b[i]) ** 2;
  const mse = se / a.length;
  return mse === 0 ? 99 : 10 * Math.log10((255 * 255) / mse);
}

function gaussBlur(x: Float64Array, w: number, h: number, k: Float64Array): Float64Array {
  const r = (k.length - 1) / 2;
  const tmp = new Float64Array(w * h);
  const out = new Float64Array(w * h);
  for (let y = 0; y < h; y++)
    for (let c = r; c < w - r; c++) {
      let s = 0;
      for (let i = -r; i <= r; i++) s += x[y * w + c + i] * k[i + r];
      tmp[y * w + c] = s;
    }
  for (let y = r; y < h - r; y++)
    for (let c = r; c < w - r; c++) {
      let s = 0;
      for (let i = -r; i <= r; i++) s += tmp[(y + i) * w + c] * k[i + r];
      out[y * w + c] = s;
    }
  return out;
}

/** Mean SSIM (Wang et al. 2004: 11x11 Gaussian, sigma 1.5) on luma, ignoring a border. */
export function ssimY(ref: RawImage, test: RawImage, border: number): number {
  const A = crop(luma(ref), ref.width, ref.height, border);
  const B = crop(luma(test), test.width, test.height, border);
  const { w, h } = A;
  const k = new Float64Array(11);
  let ks = 0;
  for (let i = 0; i < 11; i++) ks += k[i] = Math.exp(-((i - 5) ** 2) / (2 * 1.5 * 1.5));
  for (let i = 0; i < 11; i++) k[i] /= ks;
  const a = A.y;
  const b = B.y;
  const aa = a.map((v) => v * v);
  const bb = b.map((v) => v * v);
  const ab = a.map((v, i) => v * b[i]);
  const [ma, mb, saa, sbb, sab] = [a, b, aa, bb, ab].map((x) => gaussBlur(x, w, h, k));
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  let s = 0;
  let n = 0;
  for (let y = 5; y < h - 5; y++)
    for (let x = 5; x < w - 5; x++) {
      const i = y * w + x;
      const mua = ma[i];
      const mub = mb[i];
      const va = saa[i] - mua * mua;
      const vb = sbb[i] - mub * mub;
      const cov = sab[i] - mua * mub;
      s += ((2 * mua * mub + C1) * (2 * cov + C2)) / ((mua * mua + mub * mub + C1) * (va + vb + C2));
      n++;
    }
  return s / n;
}
