/**
 * The ordinary user of the abuse bench, in a worker thread of its own: a
 * browser is not inside the attacker, so its timings must not wait for the
 * attacker's event loop (1,500 requests fired and answered at once). Like a
 * browser it keeps one connection open, so a page load is not a new TCP
 * handshake queued behind the flood's connections.
 *
 * Messages in: {measure: 'idle', count} takes that many samples back to back;
 * {measure: 'attack'} samples until {measure: 'stop'}. Each answers with
 * {samples}: the gallery page's latencies in milliseconds.
 */
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

type Command = { measure: 'idle'; count: number } | { measure: 'attack' } | { measure: 'stop' };

const { base, token } = workerData as { base: string; token: string };
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const MIN_ATTACK_SAMPLES = 50;

function galleryOnce(): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/library?kind=image&limit=48`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`gallery ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

let attacking = false;
parentPort!.on('message', async (cmd: Command) => {
  if (cmd.measure === 'stop') {
    attacking = false;
    return;
  }
  const samples: number[] = [];
  if (cmd.measure === 'idle') {
    for (let i = 0; i < cmd.count; i++) samples.push(await galleryOnce());
  } else {
    attacking = true;
    while (attacking || samples.length < MIN_ATTACK_SAMPLES) samples.push(await galleryOnce());
  }
  parentPort!.postMessage({ samples });
});
