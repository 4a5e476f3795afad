/**
 * One timed restore of a photo file, in a process of its own, so that its
 * peak memory (the kernel's high-water mark, VmHWM, which includes the worker
 * threads, sharp and every buffer) is the restore's alone and not the
 * benchmark's. Run by run.ts: `node --import tsx speed-one.ts <photo.jpg> <workDir>`.
 * Prints one line of JSON.
 */
import { readFileSync } from 'node:fs';
import { createLocalAiProvider } from '../../src/server/providers/ai/local/index.js';
import { restoreLocally } from '../../src/tools/fal-image-restore/local.js';

const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

async function main() {
  const [path, workDir] = process.argv.slice(2);
  const ai = createLocalAiProvider({ threads: 2 });
  const idle = status('VmRSS');
  let tiles = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const out = await restoreLocally(
    ai.runtime,
    { upscaling: 1, backbone: 'edsr' },
    { path, contentType: 'image/jpeg' },
    { signal: new AbortController().signal, onProgress: (p) => void (/tile/.test(p.stage) && tiles++), workDir },
  );
  const c = process.cpuUsage(c0);
  const wall = (performance.now() - t0) / 1000;
  const peak = status('VmHWM');
  await ai.close();
  console.log(JSON.stringify({ wall, cpu: (c.user + c.system) / 1e6, tiles, idleMb: idle, peakMb: peak, said: out.findings?.summary ?? out.model }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
