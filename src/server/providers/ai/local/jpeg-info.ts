/**
 * What a JPEG file says about its own compression: the quantization tables
 * (DQT) of its luma and chroma, the chroma subsampling (SOF), and from the
 * luma table an estimate of the quality it was saved at.
 *
 * Written here rather than taken from a library: sharp (libvips) and the
 * JavaScript decoders we could use decode the pixels but do not expose the
 * tables, and reading them is a walk over the marker segments up to the
 * start of the scan (DQT and SOF are plain, documented byte layouts).
 */
import { open } from 'node:fs/promises';

export interface JpegInfo {
  /** Luma quantization steps in natural order (row-major: index v*8 + u, v the vertical frequency). */
  luma: number[];
  /** Chroma quantization steps (natural order), null for a greyscale JPEG. */
  chroma: number[] | null;
  /** Chroma planes stored at half width and/or half height (4:2:0, 4:2:2). */
  chromaSubsampled: boolean;
  progressive: boolean;
  /** Quality (1..100) an IJG/libjpeg encoder would have needed for this luma table. */
  quality: number;
}

/** Position in natural order of the i-th coefficient in zigzag order. */
const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36,
  29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

/** The JPEG standard's example luma table (Annex K), natural order: what IJG quality 50 uses. */
const STD_LUMA = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109,
  103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];

/** The headers are in the first kilobytes; EXIF thumbnails can push them further. */
const MAX_HEADER_BYTES = 1 << 20;

/** Reads the tables of a JPEG file; null when it is not a (readable) JPEG. */
export async function readJpegInfo(path: string): Promise<JpegInfo | null> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(MAX_HEADER_BYTES);
    const { bytesRead } = await fh.read(buf, 0, MAX_HEADER_BYTES, 0);
    return parseJpegInfo(buf.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

export function parseJpegInfo(buf: Uint8Array): JpegInfo | null {
  if (buf.length < 4 || buf[0] !== 0xff || buf[1] !== 0xd8) return null;
  const tables = new Map<number, number[]>();
  let components: Array<{ id: number; h: number; v: number; table: number }> | null = null;
  let progressive = false;
  let p = 2;
  while (p + 4 <= buf.length) {
    if (buf[p] !== 0xff) return null;
    const marker = buf[p + 1];
    if (marker === 0xff) {
      p += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      p += 2;
      continue;
    }
    const len = (buf[p + 2] << 8) | buf[p + 3];
    const start = p + 4;
    const end = p + 2 + len;
    if (len < 2 || end > buf.length) break;
    if (marker === 0xdb) {
      let q = start;
      while (q < end) {
        const precision = buf[q] >> 4;
        const id = buf[q] & 15;
        q += 1;
        const table = new Array<number>(64);
        for (let i = 0; i < 64; i++) {
          table[ZIGZAG[i]] = precision ? (buf[q + 2 * i] << 8) | buf[q + 2 * i + 1] : buf[q + i];
        }
        q += precision ? 128 : 64;
        if (q > end || table.some((v) => !(v >= 1))) return null;
        tables.set(id, table);
      }
    } else if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      progressive = marker === 0xc2 || marker === 0xc6 || marker === 0xca || marker === 0xce;
      const n = buf[start + 5];
      components = [];
      for (let i = 0; i < n; i++) {
        const o = start + 6 + i * 3;
        components.push({ id: buf[o], h: buf[o + 1] >> 4, v: buf[o + 1] & 15, table: buf[o + 2] });
      }
    } else if (marker === 0xda) {
      break; // start of scan: every table the image needs came before it
    }
    p = end;
  }
  if (!components?.length) return null;
  const luma = tables.get(components[0].table);
  if (!luma) return null;
  const chromaComp = components[1];
  const chroma = chromaComp ? (tables.get(chromaComp.table) ?? null) : null;
  const chromaSubsampled = !!chromaComp && (chromaComp.h < components[0].h || chromaComp.v < components[0].v);
  return { luma, chroma, chromaSubsampled, progressive, quality: estimateQuality(luma) };
}

/**
 * Inverts the IJG scaling (table = std x S / 100, S = 5000 / q below 50,
 * 200 - 2q above) with the mean ratio to the standard table; for tables of
 * other encoders it is the IJG quality of equal strength.
 */
export function estimateQuality(luma: number[]): number {
  let s = 0;
  for (let i = 0; i < 64; i++) s += luma[i] / STD_LUMA[i];
  const scale = (100 * s) / 64;
  const q = scale <= 100 ? (200 - scale) / 2 : 5000 / scale;
  return Math.max(1, Math.min(100, Math.round(q)));
}
