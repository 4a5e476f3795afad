/**
 * The abuse bench's reset-password flood, in a worker thread of its own (see
 * attacker.ts): `count` parallel resets with made-up links, half from one
 * address and half each from an address of its own. Answers with {codes,
 * attackMs}; 0 stands for a lost connection.
 */
import { parentPort, workerData } from 'node:worker_threads';

const flood = workerData as { base: string; count: number; firstAddress: number };
const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

const t0 = performance.now();
const codes = await Promise.all(
  Array.from({ length: flood.count }, (_, i) =>
    fetch(`${flood.base}/api/auth/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address(i % 2 ? flood.firstAddress : flood.firstAddress + i) },
      body: JSON.stringify({ token: `made-up-${i}`, password: `new-password-${i}`, confirmPassword: `new-password-${i}` }),
    })
      .then(async (r) => (await r.arrayBuffer(), r.status))
      .catch(() => 0),
  ),
);
parentPort!.postMessage({ codes, attackMs: performance.now() - t0 });
