// Runs each of the five tools once through the HTTP API of a running server,
// with whatever AI provider, database and storage it was started with, and
// checks every result can be downloaded. scripts/check-container-steps.sh
// runs it against the compiled server on a production-only install, so a
// dependency that install lacks shows up as a failed run here.
//
//   node scripts/smoke-tools.mjs <base url> <admin e-mail>
//
// The server must list <admin e-mail> in ADMIN_EMAILS (the account grants
// itself the ENERGY the runs cost). Plain Node and ffmpeg on PATH (for a test
// clip), no packages: it runs from any folder.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';

const [base, adminEmail] = process.argv.slice(2);
if (!base || !adminEmail) {
  console.error('usage: node scripts/smoke-tools.mjs <base url> <admin e-mail>');
  process.exit(2);
}

let token = '';
async function call(method, path, body, extra = {}) {
  const headers = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra.headers };
  let payload;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(new URL(path, base), { method, headers, body: payload, redirect: 'manual' });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  if (!res.ok && !extra.allow?.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return { status: res.status, json };
}

/** A small RGB PNG with some structure to work on (gradient and squares). */
function png(width, height) {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    for (let x = 0; x < width; x++) {
      const o = y * (width * 3 + 1) + 1 + x * 3;
      const square = (Math.floor(x / 8) + Math.floor(y / 8)) % 2;
      raw[o] = (x * 255) / width;
      raw[o + 1] = square ? 200 : 60;
      raw[o + 2] = (y * 255) / height;
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Fetches a result link (relative links are this app's own) and checks its type and size. */
async function download(url, kind) {
  const res = await fetch(new URL(url, base));
  const type = res.headers.get('content-type') ?? '';
  const bytes = (await res.arrayBuffer()).byteLength;
  if (!res.ok || !type.startsWith(`${kind}/`) || bytes < 100) throw new Error(`result ${url}: ${res.status} ${type} ${bytes} bytes`);
  return `${type}, ${bytes} bytes`;
}

const started = performance.now();
const password = 'smoke-test-password-1';
await call('POST', '/api/auth/sign-up/email', { name: 'Smoke Test', email: adminEmail, password });
const signedIn = await call('POST', '/api/auth/sign-in/email', { email: adminEmail, password });
token = signedIn.json.token;
const me = await call('GET', '/api/me');
const userId = me.json.user?.id ?? me.json.id;
await call('POST', `/api/admin/users/${userId}/grant`, { amount: 500, reason: 'smoke test' });

const form = new FormData();
form.set('file', new Blob([png(96, 64)], { type: 'image/png' }), 'smoke.png');
const upload = await call('POST', '/api/library/uploads', form);
const imageUrl = upload.json.url ?? upload.json.item?.url;

// A one-second clip for the video upscaler (the server probes and decodes it with its own ffmpeg).
const clipPath = join(mkdtempSync(join(tmpdir(), 'pixelrush-smoke-')), 'smoke.mp4');
const clip = spawnSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=96x64:rate=8:duration=1', '-pix_fmt', 'yuv420p', clipPath]);
if (clip.status !== 0) throw new Error(`ffmpeg could not make the test clip: ${clip.error?.message ?? clip.stderr}`);
const clipForm = new FormData();
clipForm.set('file', new Blob([readFileSync(clipPath)], { type: 'video/mp4' }), 'smoke.mp4');
rmSync(dirname(clipPath), { recursive: true, force: true });
const clipUpload = await call('POST', '/api/library/uploads', clipForm);
const videoUrl = clipUpload.json.url ?? clipUpload.json.item?.url;

// The cheapest settings of each tool: this proves every path loads and runs, not its quality.
const runs = [
  ['fal-upscaler', { image_url: imageUrl, scale: 2 }, 'upscaled_url', 'image'],
  ['fal-image-restore', { image_url: imageUrl, upscaling: 1 }, 'restored_url', 'image'],
  ['fal-image-editor', { image_url: imageUrl, prompt: 'make it brighter' }, 'edited_url', 'image'],
  [
    'fal-image-to-video',
    { image_url: imageUrl, prompt: 'slow zoom in', resolution: '480p', num_frames: 81, frames_per_second: 16, interpolator_model: 'none' },
    'video_url',
    'video',
  ],
  ['fal-video-upscaler', { video_url: videoUrl, scale: 1.5 }, 'upscaled_url', 'video'],
];
for (const [tool, body, field, kind] of runs) {
  const t = performance.now();
  const { json } = await call('POST', `/functions/v1/${tool}`, body);
  if (!json?.[field]) throw new Error(`${tool}: no ${field} in ${JSON.stringify(json).slice(0, 300)}`);
  console.log(`${tool}: ${json.model}; ${await download(json[field], kind)} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
}
console.log(`five tools ran in ${((performance.now() - started) / 1000).toFixed(0)} s`);
