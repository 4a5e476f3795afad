// A runnable tour of the client: who the key belongs to, what each tool costs, and (with
// IMAGE_URL) one upscale started in the background and followed to its end.
//
//   PIXELRUSH_URL=http://localhost:3000 PIXELRUSH_KEY=prk_... npm run example -w @pixelrush/client
//   PIXELRUSH_URL=... PIXELRUSH_KEY=... IMAGE_URL=https://example.com/photo.jpg npm run example -w @pixelrush/client
import { createPixelRushClient } from '@pixelrush/client';

const baseUrl = process.env.PIXELRUSH_URL ?? 'http://localhost:3000';
const key = process.env.PIXELRUSH_KEY;
if (!key) {
  console.error('Set PIXELRUSH_KEY to a personal API key (dashboard -> API Keys).');
  process.exit(2);
}
const api = createPixelRushClient(baseUrl, key);

// Every answer is typed from the document: `data` on success, `error` ({error, code}) otherwise.
const me = await api.GET('/api/me');
if (me.error) throw new Error(`${me.response.status} ${me.error.error}`);
console.log(`Signed in as ${me.data.email}: ${me.data.energy_balance} ENERGY`);

const pricing = await api.GET('/api/pricing');
if (pricing.error) throw new Error(pricing.error.error);
for (const tool of pricing.data) console.log(`  ${tool.display_name}: ${tool.effective_cost} ENERGY`);

const imageUrl = process.env.IMAGE_URL;
if (imageUrl) {
  const started = await api.POST('/functions/v1/fal-upscaler', {
    body: { image_url: imageUrl, scale: 2 },
    headers: { prefer: 'respond-async', 'idempotency-key': `quick-start-${Date.now()}` },
  });
  if (started.error) throw new Error(`${started.response.status} ${started.error.error}`);
  if (!('job_id' in started.data)) throw new Error('expected a job id (Prefer: respond-async)');
  const id = started.data.job_id;
  console.log(`Started job ${id}`);
  for (;;) {
    const job = await api.GET('/api/jobs/{id}', { params: { path: { id } } });
    if (job.error) throw new Error(job.error.error);
    if (job.data.status === 'succeeded' || job.data.status === 'failed' || job.data.status === 'canceled') {
      console.log(`Job ${id} ${job.data.status}`, job.data.status === 'succeeded' ? job.data.result : job.data.error);
      break;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
