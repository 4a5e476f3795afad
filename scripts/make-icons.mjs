// Renders the app's icons and social card from src/web/public/favicon.svg into
// src/web/public (committed; run again when the logo changes):
//   node scripts/make-icons.mjs
// favicon.ico (16, 32 and 48 px, PNG entries), icon-192.png and icon-512.png
// for the web manifest (the 512 one also maskable-safe: the mark keeps to the
// middle 80 %), apple-touch-icon.png (180 px) and og-image.png (1200 x 630).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const pub = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/web/public');
const svg = fs.readFileSync(path.join(pub, 'favicon.svg'));
const BACKGROUND = '#09090b';

const png = (size) => sharp(svg, { density: Math.ceil((72 * size) / 64) }).resize(size, size).png({ compressionLevel: 9 }).toBuffer();

/** The mark at 80 % on the app's background: survives a launcher's circular or rounded mask. */
async function padded(size) {
  const inner = Math.round(size * 0.8);
  return sharp({ create: { width: size, height: size, channels: 4, background: BACKGROUND } })
    .composite([{ input: await png(inner), gravity: 'centre' }])
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** ICO with PNG entries (allowed since Windows Vista; every browser reads it). */
function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, i) => {
    const e = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, e);
    header.writeUInt8(size >= 256 ? 0 : size, e + 1);
    header.writeUInt16LE(1, e + 4); // colour planes
    header.writeUInt16LE(32, e + 6); // bits per pixel
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.data)]);
}

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
function socialCard() {
  const mark = svg.toString().replace('<svg ', '<svg x="120" y="215" width="200" height="200" ');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630">` +
      `<defs><radialGradient id="glow" cx="0.2" cy="0.1" r="0.9"><stop offset="0" stop-color="#4c1d95"/><stop offset="1" stop-color="${BACKGROUND}"/></radialGradient></defs>` +
      `<rect width="1200" height="630" fill="url(#glow)"/>${mark}` +
      `<text x="370" y="300" font-family="DejaVu Sans, Arial, sans-serif" font-size="88" font-weight="700" fill="#fff">PixelRush</text>` +
      `<text x="372" y="372" font-family="DejaVu Sans, Arial, sans-serif" font-size="36" fill="#d4d4d8">${escape('Rush your images to perfection with AI')}</text>` +
      `<text x="372" y="430" font-family="DejaVu Sans, Arial, sans-serif" font-size="28" fill="#a1a1aa">${escape('Upscale, edit, restore and animate images and videos')}</text>` +
      `</svg>`,
  );
}

const write = (name, data) => {
  fs.writeFileSync(path.join(pub, name), data);
  console.log(`${name}: ${data.length} bytes`);
};
write('favicon.ico', ico(await Promise.all([16, 32, 48].map(async (size) => ({ size, data: await png(size) })))));
write('icon-192.png', await png(192));
write('icon-512.png', await padded(512));
write('apple-touch-icon.png', await padded(180));
write('og-image.png', await sharp(socialCard()).png({ compressionLevel: 9, palette: true }).toBuffer());
