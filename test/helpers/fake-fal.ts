/**
 * Tests only: an in-process fake of fal.ai (queue + storage + CDN) on one
 * port, speaking the protocol @fal-ai/client 1.10.x uses:
 *
 *   POST /storage/upload/initiate?storage_type=fal-cdn-v3  {content_type, file_name} -> {upload_url, file_url}
 *   PUT  /upload/{token}                                    the bytes (no auth)
 *   POST /storage/upload/initiate-multipart?...             (files over 90 MB) -> {upload_url, file_url}, then
 *   PUT  /multipart/{token}/{n} -> {partNumber, etag}; POST /multipart/{token}/complete {parts}
 *   POST /{owner}/{alias}[/{subpath}]                       submit -> {request_id, response_url, status_url, cancel_url, queue_position}
 *   GET  /{owner}/{alias}/requests/{id}/status?logs=1       IN_QUEUE -> IN_PROGRESS (logs) -> COMPLETED
 *   GET  /{owner}/{alias}/requests/{id}                     the output JSON, or the failure (non-2xx)
 *   PUT  /{owner}/{alias}/requests/{id}/cancel
 *   GET  /files/{token}/{name}                              uploaded inputs and generated outputs (no auth)
 *
 * Status, result and cancel live under {owner}/{alias} only: a client that
 * kept the subpath gets 404. Every request is recorded for assertions.
 *
 * Each submitted input is checked against the model's published input schema
 * (test/fixtures/fal-input-schemas.ts). Like fal, the queue takes the request
 * and the failure shows on the result call: 422 with
 * `detail: [{loc, msg, type}]`, with no retry headers (a wrong field stays
 * wrong). Seeded requests (an earlier attempt's) are not checked.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { ffmpegPath } from '../../src/server/providers/ai/local/ffmpeg.js';
import { FAL_INPUT_SCHEMAS, validateFalInput, type FalDetail } from '../fixtures/fal-input-schemas.js';

export const KNOWN_ENDPOINTS = [
  'fal-ai/esrgan',
  'fal-ai/thera',
  'fal-ai/flux-kontext/dev',
  'fal-ai/wan/v2.2-a14b/image-to-video',
  'fal-ai/wan/v2.2-a14b/image-to-video/lora',
  'fal-ai/video-upscaler',
] as const;

export type RequestKind = 'initiate' | 'upload' | 'initiate-multipart' | 'upload-part' | 'upload-complete' | 'submit' | 'status' | 'result' | 'cancel' | 'file' | 'unknown';

export interface RecordedRequest {
  seq: number;
  kind: RequestKind;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body, when there was one. */
  json?: unknown;
  bodyBytes: number;
  /** Request id for status/result/cancel/submit. */
  requestId?: string;
  status?: number;
}

export interface FakeFailure {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface Behaviour {
  /** Status polls answered IN_QUEUE (queue_position counts down to 0). */
  queueSteps: number;
  /** Status polls answered IN_PROGRESS, with logs 'Step k/n'. */
  progressSteps: number;
  /** Stay IN_PROGRESS until cancelled. */
  hold: boolean;
  /** The result call answers this instead of the output (the status still ends COMPLETED). */
  failure?: FakeFailure;
  /** Replaces the generated output JSON. */
  output?: unknown;
  /** Replaces the generated output file (served at the output URL). */
  outputFile?: { bytes: Buffer; contentType: string | null; name: string };
}

export interface FakeRequestState {
  id: string;
  endpointId: string;
  /** {owner}/{alias}: where status/result/cancel live. */
  app: string;
  input: Record<string, unknown>;
  behaviour: Behaviour;
  polls: number;
  cancelled: boolean;
  /** What the schema check found in the submitted input (empty: accepted). */
  inputErrors: FalDetail[];
}

export interface FakeUpload {
  token: string;
  contentType: string;
  fileName: string;
  /** Content-Type of the PUT. */
  putContentType?: string;
  bytes?: Buffer;
  fileUrl: string;
  /** Multipart uploads: the parts received, by number. */
  parts?: Map<number, Buffer>;
}

export interface FakeFal {
  /** Use as apiBase. */
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  uploads: FakeUpload[];
  submissions: FakeRequestState[];
  /** Every request the fake knows (submitted or seeded), by id. */
  state: Map<string, FakeRequestState>;
  defaults: Behaviour;
  /** The behaviour of the next submissions, in order (falls back to `defaults`). */
  plan(...b: Array<Partial<Behaviour>>): void;
  /** A request that exists already (an earlier attempt's), for resume tests. */
  seed(endpointId: string, behaviour?: Partial<Behaviour>, input?: Record<string, unknown>): FakeRequestState;
  /** Called for each status answer (e.g. to abort a run mid-way). */
  onStatus?: (state: FakeRequestState, answer: Record<string, unknown>) => void;
  /** The generated output files. */
  png: { bytes: Buffer; width: number; height: number };
  mp4: { bytes: Buffer; width: number; height: number; seconds: number };
  /** Requests of one kind. */
  of(kind: RequestKind): RecordedRequest[];
  close(): Promise<void>;
}

const DEFAULT_BEHAVIOUR: Behaviour = { queueSteps: 1, progressSteps: 2, hold: false };

async function makePng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();
}

async function makeMp4(width: number, height: number, seconds: number): Promise<Buffer> {
  const { mkdtemp, readFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const dir = await mkdtemp(path.join(tmpdir(), 'fake-fal-'));
  const out = path.join(dir, 'out.mp4');
  try {
    await promisify(execFile)(ffmpegPath(), [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'lavfi', '-i', `testsrc=size=${width}x${height}:rate=8:duration=${seconds}`,
      '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-movflags', '+faststart', out,
    ]);
    return await readFile(out);
  } catch {
    // No ffmpeg here: bytes that only look like an MP4 header.
    return Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(64, 1)]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startFakeFal(opts: { apiKey?: string } = {}): Promise<FakeFal> {
  const apiKey = opts.apiKey ?? 'fal-test-key';
  const [pngBytes, mp4Bytes] = await Promise.all([makePng(32, 24), makeMp4(64, 48, 1)]);
  const files = new Map<string, { bytes: Buffer; contentType: string | null }>();
  const planned: Array<Partial<Behaviour>> = [];
  let seq = 0;
  let base = '';

  const fake: FakeFal = {
    url: '',
    apiKey,
    requests: [],
    uploads: [],
    submissions: [],
    state: new Map(),
    defaults: { ...DEFAULT_BEHAVIOUR },
    png: { bytes: pngBytes, width: 32, height: 24 },
    mp4: { bytes: mp4Bytes, width: 64, height: 48, seconds: 1 },
    plan: (...b) => void planned.push(...b),
    seed(endpointId, behaviour = {}, input = {}) {
      const st = newState(endpointId, input, { ...fake.defaults, ...behaviour });
      return st;
    },
    of: (kind) => fake.requests.filter((r) => r.kind === kind),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function newState(endpointId: string, input: Record<string, unknown>, behaviour: Behaviour): FakeRequestState {
    const [owner, alias] = endpointId.split('/');
    const st: FakeRequestState = {
      id: randomUUID(),
      endpointId,
      app: `${owner}/${alias}`,
      input,
      behaviour,
      polls: 0,
      cancelled: false,
      inputErrors: [],
    };
    fake.state.set(st.id, st);
    return st;
  }

  function serveFile(name: string, bytes: Buffer, contentType: string | null): string {
    const token = randomUUID();
    files.set(`${token}/${name}`, { bytes, contentType });
    return `${base}/files/${token}/${name}`;
  }

  function output(st: FakeRequestState): unknown {
    if (st.behaviour.output !== undefined) return st.behaviour.output;
    const isVideo = st.endpointId.startsWith('fal-ai/wan/') || st.endpointId === 'fal-ai/video-upscaler';
    const custom = st.behaviour.outputFile;
    const file = custom ?? (isVideo
      ? { bytes: fake.mp4.bytes, contentType: 'video/mp4', name: 'output.mp4' }
      : { bytes: fake.png.bytes, contentType: 'image/png', name: 'output.png' });
    const url = serveFile(file.name, file.bytes, file.contentType);
    const ref = { url, content_type: file.contentType ?? undefined, file_name: file.name, file_size: file.bytes.length };
    const image = { ...ref, width: fake.png.width, height: fake.png.height };
    switch (st.endpointId) {
      case 'fal-ai/esrgan':
        return { image };
      case 'fal-ai/thera':
        return { image, seed: 1234 };
      case 'fal-ai/flux-kontext/dev':
        return { images: [image], prompt: st.input.prompt, has_nsfw_concepts: [false], seed: 42, timings: {} };
      case 'fal-ai/video-upscaler':
        return { video: ref };
      default:
        return { video: ref, prompt: st.input.prompt, seed: 7 };
    }
  }

  function statusAnswer(st: FakeRequestState, withLogs: boolean): Record<string, unknown> {
    st.polls += 1;
    const b = st.behaviour;
    const urls = {
      request_id: st.id,
      response_url: `${base}/${st.app}/requests/${st.id}`,
      status_url: `${base}/${st.app}/requests/${st.id}/status`,
      cancel_url: `${base}/${st.app}/requests/${st.id}/cancel`,
    };
    const logs = (n: number) =>
      withLogs
        ? Array.from({ length: n }, (_, i) => ({
            message: `Step ${i + 1}/${Math.max(b.progressSteps, 2)}`,
            level: 'INFO',
            source: 'USER',
            timestamp: new Date().toISOString(),
          }))
        : [];
    if (st.cancelled) return { ...urls, status: 'COMPLETED', logs: logs(0) };
    if (st.polls <= b.queueSteps) return { ...urls, status: 'IN_QUEUE', queue_position: b.queueSteps - st.polls };
    const inProgress = st.polls - b.queueSteps;
    if (b.hold || inProgress <= b.progressSteps) {
      return { ...urls, status: 'IN_PROGRESS', logs: logs(Math.min(inProgress, Math.max(b.progressSteps, 1))) };
    }
    return { ...urls, status: 'COMPLETED', logs: logs(b.progressSteps), metrics: { inference_time: 0.1 } };
  }

  function completed(st: FakeRequestState): boolean {
    const b = st.behaviour;
    return st.cancelled || (!b.hold && st.polls > b.queueSteps + b.progressSteps);
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    const body = await readBody(req);
    const method = req.method ?? 'GET';
    const record: RecordedRequest = {
      seq: ++seq,
      kind: 'unknown',
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      bodyBytes: body.length,
    };
    if (body.length && String(req.headers['content-type'] ?? '').includes('application/json')) {
      try {
        record.json = JSON.parse(body.toString('utf8'));
      } catch {
        /* recorded as bytes only */
      }
    }
    fake.requests.push(record);

    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      const text = JSON.stringify(payload);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
      res.end(text);
    };
    const authorised = () => {
      if (req.headers.authorization === `Key ${apiKey}`) return true;
      send(401, { detail: 'Invalid or missing API key' });
      return false;
    };
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);

    // Storage: initiate, then the PUT of the bytes.
    const initiate = /^\/storage\/upload\/initiate(-multipart)?$/.exec(url.pathname);
    if (method === 'POST' && initiate) {
      const multipart = initiate[1] !== undefined;
      record.kind = multipart ? 'initiate-multipart' : 'initiate';
      if (!authorised()) return;
      if (url.searchParams.get('storage_type') !== 'fal-cdn-v3') return send(400, { detail: 'storage_type must be fal-cdn-v3' });
      const j = (record.json ?? {}) as { content_type?: string; file_name?: string };
      if (!j.content_type || !j.file_name) return send(422, { detail: [{ loc: ['body'], msg: 'content_type and file_name are required', type: 'missing' }] });
      const token = randomUUID();
      const upload: FakeUpload = {
        token,
        contentType: j.content_type,
        fileName: j.file_name,
        fileUrl: `${base}/files/${token}/${encodeURIComponent(j.file_name)}`,
        ...(multipart ? { parts: new Map() } : {}),
      };
      fake.uploads.push(upload);
      return send(200, { upload_url: `${base}/${multipart ? 'multipart' : 'upload'}/${token}`, file_url: upload.fileUrl });
    }
    if (parts[0] === 'multipart' && parts.length === 3) {
      const upload = fake.uploads.find((u) => u.token === parts[1] && u.parts);
      if (method === 'PUT' && /^\d+$/.test(parts[2]!)) {
        record.kind = 'upload-part';
        if (!upload) return send(404, { detail: 'Unknown upload' });
        const n = Number(parts[2]);
        upload.parts!.set(n, body);
        return send(200, { partNumber: n, etag: `"etag-${n}"` });
      }
      if (method === 'POST' && parts[2] === 'complete') {
        record.kind = 'upload-complete';
        if (!upload) return send(404, { detail: 'Unknown upload' });
        const listed = ((record.json as { parts?: Array<{ partNumber: number; etag: string }> } | undefined)?.parts ?? []);
        const numbers = [...upload.parts!.keys()].sort((a, b) => a - b);
        const ok = listed.length === numbers.length && listed.every((p, i) => p.partNumber === numbers[i] && p.etag === `"etag-${numbers[i]}"`);
        if (!ok) return send(400, { detail: 'Parts do not match' });
        upload.bytes = Buffer.concat(numbers.map((n) => upload.parts!.get(n)!));
        files.set(`${upload.token}/${upload.fileName}`, { bytes: upload.bytes, contentType: upload.contentType });
        return send(200, { ok: true });
      }
    }
    if (method === 'PUT' && parts[0] === 'upload' && parts.length === 2) {
      record.kind = 'upload';
      const upload = fake.uploads.find((u) => u.token === parts[1]);
      if (!upload) return send(404, { detail: 'Unknown upload' });
      upload.bytes = body;
      upload.putContentType = req.headers['content-type'];
      files.set(`${upload.token}/${upload.fileName}`, { bytes: body, contentType: upload.contentType });
      return send(200, { ok: true });
    }
    if (method === 'GET' && parts[0] === 'files' && parts.length === 3) {
      record.kind = 'file';
      const file = files.get(`${parts[1]}/${parts[2]}`);
      if (!file) return send(404, { detail: 'Not found' });
      record.status = 200;
      res.writeHead(200, { ...(file.contentType ? { 'content-type': file.contentType } : {}), 'content-length': file.bytes.length });
      return res.end(file.bytes);
    }

    // Queue: status, cancel, result under {owner}/{alias} only.
    if (parts.length >= 4 && parts[2] === 'requests') {
      const app = `${parts[0]}/${parts[1]}`;
      const id = parts[3]!;
      record.requestId = id;
      const tail = parts.slice(4).join('/');
      const kind: RequestKind | null =
        method === 'GET' && tail === 'status' ? 'status' : method === 'PUT' && tail === 'cancel' ? 'cancel' : method === 'GET' && tail === '' ? 'result' : null;
      if (kind) {
        record.kind = kind;
        if (!authorised()) return;
        const st = fake.state.get(id);
        if (!st || st.app !== app) return send(404, { detail: `Request ${id} not found` });
        if (kind === 'status') {
          const answer = statusAnswer(st, url.searchParams.get('logs') === '1');
          fake.onStatus?.(st, answer);
          return send(200, answer);
        }
        if (kind === 'cancel') {
          if (completed(st)) return send(400, { status: 'ALREADY_COMPLETED' });
          st.cancelled = true;
          return send(202, { status: 'CANCELLATION_REQUESTED' });
        }
        if (st.cancelled) return send(400, { detail: 'Request was cancelled', error_type: 'client_cancelled' }, { 'x-fal-error-type': 'client_cancelled' });
        if (!completed(st)) return send(400, { detail: 'Request is still in progress' });
        if (st.inputErrors.length) return send(422, { detail: st.inputErrors });
        if (st.behaviour.failure) {
          const f = st.behaviour.failure;
          return send(f.status, f.body, f.headers ?? {});
        }
        return send(200, output(st), { 'x-fal-request-id': st.id });
      }
    }
    if (method === 'POST' && parts.length >= 2) {
      record.kind = 'submit';
      if (!authorised()) return;
      const endpointId = parts.join('/');
      if (!(KNOWN_ENDPOINTS as readonly string[]).includes(endpointId)) return send(404, { detail: `Application ${endpointId} not found` });
      const behaviour = { ...fake.defaults, ...(planned.shift() ?? {}) };
      const st = newState(endpointId, (record.json ?? {}) as Record<string, unknown>, behaviour);
      st.inputErrors = validateFalInput(FAL_INPUT_SCHEMAS[endpointId]!, record.json);
      fake.submissions.push(st);
      record.requestId = st.id;
      return send(200, {
        request_id: st.id,
        response_url: `${base}/${st.app}/requests/${st.id}`,
        status_url: `${base}/${st.app}/requests/${st.id}/status`,
        cancel_url: `${base}/${st.app}/requests/${st.id}/cancel`,
        queue_position: behaviour.queueSteps,
      });
    }
    send(404, { detail: 'Not found' });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = base;
  return fake;
}
