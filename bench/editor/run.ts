/**
 * bench/editor: how well the editor reads plain language, and what segmentation costs.
 *
 * 1. Every request of requests.ts read by the editor (shared/edit-language) and, as the
 *    baseline in the same run, by the command language it replaced (edit-commands.ts).
 *    Understood = the same steps as expected (amounts checked where the request names one).
 *    Generative requests must be refused with the helpful message (nothing charged).
 * 2. The subject mask (U²-Net-p on ONNX Runtime, one thread) on photos of 0.3, 1 and 4 MP,
 *    with its peak memory, against a plain 5 px Gaussian blur of the same photo (sharp) as
 *    the baseline measured in the same run.
 */
import sharp from 'sharp';
import { parseEditCommands, validateEditPrompt, type EditOp } from '../../src/shared/edit-commands.js';
import { interpretEdit } from '../../src/shared/edit-language/interpret.js';
import type { EditStep } from '../../src/shared/edit-language/steps.js';
import { subjectMask } from '../../src/server/providers/ai/local/segmentation.js';
import { toRgba } from '../../src/server/providers/ai/local/rgba.js';
import { personScene } from '../../test/helpers/scene.js';
import { HELD_OUT, REQUESTS, type Category } from './requests.js';

function token(op: EditStep | EditOp): string {
  switch (op.type) {
    case 'brightness':
      return `bright${op.percent >= 0 ? '+' : '-'}:${Math.abs(op.percent)}`;
    case 'contrast':
      return `contrast${op.percent >= 0 ? '+' : '-'}:${Math.abs(op.percent)}`;
    case 'saturation':
      return `sat${op.percent >= 0 ? '+' : '-'}:${Math.abs(op.percent)}`;
    case 'temperature':
      return op.percent >= 0 ? 'warm' : 'cool';
    case 'grayscale':
      return 'bw';
    case 'normalize':
    case 'clahe':
      return 'auto';
    case 'crop':
      return op.aspect ? `crop ${op.aspect[0]}:${op.aspect[1]}` : 'zoom';
    case 'look':
      return `look:${op.look}`;
    case 'center-subject':
      return 'center';
    case 'region':
      return `${op.region}:${op.action}`;
    default:
      return op.type;
  }
}

/** Does a reading's token list match the expected one (amounts only where expected names one)? */
function matches(got: string[], expected: string[]): boolean {
  if (got.length !== expected.length) return false;
  const left = [...got];
  for (const e of expected) {
    const m = /^(bright|contrast|sat)([+-])(\d+)?$/.exec(e);
    const i = left.findIndex((g) => {
      if (!m) return g === e;
      const [name, sign, amount] = g.split(/([+-]):/);
      return name === m[1] && sign === m[2] && (m[3] === undefined || Number(amount) === Number(m[3]));
    });
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

interface Row {
  category: Category;
  prompt: string;
  expected: string;
  product: boolean;
  baseline: boolean;
  got: string;
}

function read([category, prompt, expected]: [Category, string, string]): Row {
  const reading = interpretEdit(prompt);
  const baseParsed = parseEditCommands(prompt);
  const baseRefusal = validateEditPrompt(prompt);
  if (expected === 'GEN') {
    const helpful = reading.status === 'needs_generative' && !!reading.message && /cloud AI/.test(reading.message) && reading.suggestions.length > 0;
    return { category, prompt, expected, product: helpful, baseline: !!baseRefusal && /cloud AI/.test(baseRefusal), got: reading.status === 'ready' ? reading.summary : `${reading.status}` };
  }
  const want = expected.split(',');
  const got = reading.status === 'ready' ? reading.steps.map((s) => token(s.op)) : [];
  const base = baseRefusal ? [] : baseParsed.ops.map(token);
  return { category, prompt, expected, product: matches(got, want), baseline: matches(base, want), got: reading.status === 'ready' ? got.join(',') : `${reading.status}: ${reading.message}` };
}
const rows = REQUESTS.map(read);
const heldOut = HELD_OUT.map(read);

const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(1)}%`;
const local = rows.filter((r) => r.category !== 'generative');
const gen = rows.filter((r) => r.category === 'generative');
console.log(`Requests: ${rows.length} (${local.length} a local engine can do, ${gen.length} generative)\n`);
console.log('| category | requests | plain-language editor | command language (baseline) |');
console.log('|---|---|---|---|');
const cats = [...new Set(rows.map((r) => r.category))];
for (const c of cats) {
  const rs = rows.filter((r) => r.category === c);
  console.log(`| ${c} | ${rs.length} | ${pct(rs.filter((r) => r.product).length, rs.length)} | ${pct(rs.filter((r) => r.baseline).length, rs.length)} |`);
}
const localRate = local.filter((r) => r.product).length / local.length;
const genRate = gen.filter((r) => r.product).length / gen.length;
console.log(`| **local requests understood** | ${local.length} | **${pct(local.filter((r) => r.product).length, local.length)}** (target >= 90%) | ${pct(local.filter((r) => r.baseline).length, local.length)} |`);
console.log(`| **generative: helpful refusal, no charge** | ${gen.length} | **${pct(gen.filter((r) => r.product).length, gen.length)}** (target 100%) | ${pct(gen.filter((r) => r.baseline).length, gen.length)} |`);
const misses = rows.filter((r) => !r.product);
console.log(`\nMisses (${misses.length}):`);
for (const m of misses) console.log(`  [${m.category}] ${JSON.stringify(m.prompt)}: expected ${m.expected}, got ${m.got}`);

const heldLocal = heldOut.filter((r) => r.category !== 'generative');
const heldGen = heldOut.filter((r) => r.category === 'generative');
console.log(`\nHeld-out set (${heldOut.length} requests written after the last parser change, never tuned on):`);
console.log(`  local understood: ${pct(heldLocal.filter((r) => r.product).length, heldLocal.length)} of ${heldLocal.length} (baseline ${pct(heldLocal.filter((r) => r.baseline).length, heldLocal.length)}); generative refused helpfully: ${pct(heldGen.filter((r) => r.product).length, heldGen.length)} of ${heldGen.length}`);
for (const m of heldOut.filter((r) => !r.product)) console.log(`  miss [${m.category}] ${JSON.stringify(m.prompt)}: expected ${m.expected}, got ${m.got}`);

// ---- segmentation speed and memory
const sizes: Array<[string, number, number]> = [
  ['0.3 MP', 640, 480],
  ['1 MP', 1280, 800],
  ['4 MP', 2400, 1600],
];
console.log('\n| photo | subject mask (U²-Net-p + resize) | 5 px blur (sharp, baseline) | ratio | RSS after |');
console.log('|---|---|---|---|---|');
const rssBefore = process.memoryUsage().rss;
await subjectMask(await toRgba(sharp((await personScene(320, 240)).png))); // load the model once
for (const [name, w, h] of sizes) {
  const img = await toRgba(sharp((await personScene(w, h)).png));
  const t0 = performance.now();
  for (let i = 0; i < 3; i++) await subjectMask(img);
  const seg = (performance.now() - t0) / 3;
  const t1 = performance.now();
  for (let i = 0; i < 3; i++) await sharp(img.data, { raw: { width: w, height: h, channels: 4 } }).blur(5).raw().toBuffer();
  const blur = (performance.now() - t1) / 3;
  console.log(`| ${name} | ${seg.toFixed(0)} ms | ${blur.toFixed(0)} ms | ${(seg / blur).toFixed(1)}x | ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB |`);
}
console.log(`\nRSS before the model: ${(rssBefore / 1e6).toFixed(0)} MB. The model file is 4.6 MB.`);
if (localRate < 0.9 || genRate < 1) {
  console.log('\nBelow target.');
  process.exitCode = 1;
}
