import sharp from 'sharp';

/**
 * A photo-like scene made in the test: a blue sky over green ground, a person (a
 * skin-toned head over a red shirt) standing right of centre. Returns the PNG and
 * where things are, so a test can check the masks where they must be.
 */
export async function personScene(width = 480, height = 360): Promise<{
  png: Buffer;
  head: { cx: number; cy: number; r: number };
  body: { left: number; top: number; right: number; bottom: number };
  horizonY: number;
}> {
  const horizonY = Math.round(height * 0.45);
  const head = { cx: Math.round(width * 0.6), cy: Math.round(height * 0.36), r: Math.round(height * 0.1) };
  const body = { left: Math.round(head.cx - height * 0.16), top: Math.round(head.cy + head.r * 0.9), right: Math.round(head.cx + height * 0.16), bottom: height };
  // Texture on the ground (grass-like stripes) so blur is measurable; smooth sky.
  const stripes = Array.from({ length: 40 }, (_, i) => `<rect x="${(i * width) / 40}" y="${horizonY}" width="${width / 80}" height="${height - horizonY}" fill="#2e7d32"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3f7fd0"/><stop offset="1" stop-color="#9cc4ef"/></linearGradient></defs>
    <rect width="${width}" height="${horizonY}" fill="url(#sky)"/>
    <rect y="${horizonY}" width="${width}" height="${height - horizonY}" fill="#66a85a"/>
    ${stripes}
    <rect x="${body.left}" y="${body.top}" width="${body.right - body.left}" height="${body.bottom - body.top}" rx="${height * 0.06}" fill="#c62828"/>
    <ellipse cx="${head.cx}" cy="${head.cy}" rx="${head.r * 0.85}" ry="${head.r}" fill="#d9a07a"/>
    <ellipse cx="${head.cx}" cy="${head.cy - head.r * 0.75}" rx="${head.r * 0.9}" ry="${head.r * 0.4}" fill="#3e2723"/>
  </svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return { png, head, body, horizonY };
}
