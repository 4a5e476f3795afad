/**
 * One round of the abuse bench's attack, in a worker thread of its own: its
 * connections are new, as in a first attack, and close when the worker ends,
 * so every round meets the server the same way; and firing 1,500 requests
 * never delays the thread that keeps the time.
 *
 * workerData: the server, the victim's e-mail, the uploader's token, the
 * image to upload, how many of each request, and the first address number
 * (every wrong sign-in comes from an address of its own). Answers with
 * {signInCodes, uploadCodes, attackMs}; 0 stands for a lost connection.
 */
import { parentPort, workerData } from 'node:worker_threads';

interface Attack {
  base: string;
  victim: string;
  uploaderToken: string;
  image: Uint8Array;
  signIns: number;
  uploads: number;
  firstAddress: number;
}

const attack = workerData as Attack;
const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
const statusOf = async (r: Response) => (await r.arrayBuffer(), r.status);
/** A request refused before its body was sent may see its connection reset instead of the answer. */
const connectionLost = () => 0;

function uploadOnce() {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(attack.image)], { type: 'image/png' }), 'bench.png');
  return fetch(`${attack.base}/api/library/uploads`, { method: 'POST', headers: { authorization: `Bearer ${attack.uploaderToken}` }, body: form });
}

const t0 = performance.now();
const signIns = Array.from({ length: attack.signIns }, (_, i) =>
  fetch(`${attack.base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address(attack.firstAddress + i) },
    body: JSON.stringify({ email: attack.victim, password: `guess-${i}` }),
  })
    .then(statusOf)
    .catch(connectionLost),
);
const uploads = Array.from({ length: attack.uploads }, () => uploadOnce().then(statusOf).catch(connectionLost));
const [signInCodes, uploadCodes] = await Promise.all([Promise.all(signIns), Promise.all(uploads)]);
parentPort!.postMessage({ signInCodes, uploadCodes, attackMs: performance.now() - t0 });
