/**
 * The Quick start shown at the top of /api/docs (Markdown in the OpenAPI
 * document's description), so the page people script from tells them how.
 */
export const API_QUICK_START = `
Script every tool with a personal API key: create one in the dashboard under **Developers -> API Keys**
and send it as \`Authorization: Bearer <key>\`. Runs are charged to you and listed with the key that ran
them. Keys cannot manage accounts, keys or admin settings.

### curl

Start a run and get its id at once (\`Prefer: respond-async\`), then follow it:

\`\`\`sh
export PIXELRUSH_KEY=prk_...
curl -s https://your-host/functions/v1/fal-upscaler \\
  -H "Authorization: Bearer $PIXELRUSH_KEY" -H 'Content-Type: application/json' \\
  -H 'Prefer: respond-async' \\
  -d '{"image_url": "https://example.com/photo.jpg", "webhook_url": "https://example.com/hooks/pixelrush"}'
# -> 202 {"job_id": "...", "status": "queued"}

curl -s https://your-host/api/jobs/<job_id> -H "Authorization: Bearer $PIXELRUSH_KEY"
\`\`\`

Without \`Prefer: respond-async\` the call waits and answers with the result, as the web app's tools do.
Send an \`Idempotency-Key\` header to make retries safe: the same key replays the first answer.

### TypeScript

The repository ships a typed client generated from this document: the \`@pixelrush/client\` package in
\`packages/client\` (built on openapi-fetch, with a README and a runnable example):

\`\`\`ts
import { createPixelRushClient } from '@pixelrush/client';

const api = createPixelRushClient('https://your-host', process.env.PIXELRUSH_KEY!);
const { data, error } = await api.POST('/functions/v1/fal-upscaler', {
  body: { image_url: 'https://example.com/photo.jpg' },
});
if (error) throw new Error(error.error);
console.log(data.upscaled_url);
\`\`\`

### Webhooks

Add \`webhook_url\` to a run and we POST \`{id, type, created_at, data: {job_id, tool, status, result, error,
library_item_id, energy_used, energy_refunded}}\` there when it ends. Check the \`PixelRush-Signature\` header
(\`t=<unix seconds>,v1=<hex>\`): recompute HMAC-SHA256 with your signing secret (API Keys page) over
\`<t>.<raw body>\`, compare in constant time, and refuse timestamps older than five minutes. Failed deliveries
are retried with growing delays for up to 24 hours; the delivery id stays the same, so drop repeats.
The address must be public: private and local networks are refused.

### Errors and limits

Errors are JSON \`{error, code}\`; \`429\` answers carry \`Retry-After\`. Each key has its own budget of calls a
minute, on top of the per-person limits on runs, uploads and storage.
`.trim();
