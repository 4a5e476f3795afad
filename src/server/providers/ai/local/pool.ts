/**
 * A small pool of worker threads running the AI models (ONNX Runtime or
 * TensorFlow.js on wasm) and the classical restore kernels on image tiles.
 * One pool is shared by every tool of a provider; its size defaults to the
 * number of cores (2 here), since each worker is single-threaded.
 *
 * - Workers start lazily (first task: ~0.3 s for tf + the model load:
 *   esrgan-slim 15 ms, thick 0.15 s) and are
 *   terminated after `idleMs` without work, which returns their wasm memory
 *   (a wasm heap never shrinks) to the system.
 * - Queued tasks are served round-robin across `group`s (jobs), so two jobs
 *   running at once share the workers fairly.
 * - Aborting a running task terminates its worker (a wasm inference cannot
 *   be interrupted otherwise); a fresh worker is started for the next task.
 *   An ONNX Runtime inference is not terminated (that would abort the whole
 *   process): its task is rejected at once and the worker drains the tile.
 * - Idle workers are unref'd: they never keep the process alive.
 * - ESRGAN runs on ONNX Runtime by default (`backend`), tfjs-wasm otherwise;
 *   restore's classical pass (`kind: 'restore'`) needs neither.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { RestoreTileParams } from './restore-tile.mjs';
import { AbortError } from './util.js';

export interface TileTask {
  kind: 'esrgan' | 'restore';
  model: string;
  scale?: number;
  /** ESRGAN backend (default: the pool's). */
  backend?: AiBackend;
  /** Parameters of a 'restore' task (denoise-core.mjs `restoreTile`). */
  params?: RestoreTileParams;
  /** Where the tile lies in the photo (restore: puts the JPEG grid in place). */
  x?: number;
  y?: number;
  width: number;
  height: number;
  /** Interleaved RGB bytes; transferred to the worker (do not reuse). */
  data: Uint8Array;
  /** Restore trials: float planes a trial returned as `deblocked` for this crop (transferred); the deblocking is not redone. */
  deblocked?: Float32Array[];
  /** Restore trials: also return the planes right after deblocking. */
  keepDeblocked?: boolean;
}

/** 'onnx': ONNX Runtime with the converted weights (default); 'wasm': tfjs-backend-wasm. */
export type AiBackend = 'onnx' | 'wasm';

export interface TileResult {
  width: number;
  height: number;
  data: Uint8Array;
  deblocked?: Float32Array[];
}

interface Pending {
  id: number;
  task: TileTask | { kind: 'warmup' };
  group: unknown;
  signal?: AbortSignal;
  resolve: (r: TileResult) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
  idleTimer: NodeJS.Timeout | null;
  dead: boolean;
  /**
   * An aborted ONNX Runtime inference still running: terminating a worker
   * inside onnxruntime-node's native code aborts the whole process, so the
   * task is rejected at once and the worker finishes the tile, then idles.
   */
  draining: boolean;
  /** Called on the worker's next message or exit (close() waits on it). */
  onSettled: Array<() => void>;
}

export interface PoolOptions {
  size?: number;
  /** ESRGAN backend (default 'onnx'; falls back to 'wasm' inside a worker that cannot load onnxruntime-node). */
  backend?: AiBackend;
  idleMs?: number;
}

const WORKER_URL = new URL('./tf-worker.mjs', import.meta.url);

export class TfWorkerPool {
  readonly size: number;
  readonly backend: AiBackend;
  private readonly idleMs: number;
  private slots: Slot[] = [];
  private queues = new Map<unknown, Pending[]>();
  private order: unknown[] = [];
  private nextId = 1;
  private closed = false;
  /** One abort listener per signal (a job may queue hundreds of tiles on one signal). */
  private watched = new Map<AbortSignal, { tasks: Set<Pending>; onAbort: () => void }>();

  constructor(opts: PoolOptions = {}) {
    this.size = Math.max(1, Math.floor(opts.size ?? Math.min(4, availableParallelism())));
    this.idleMs = opts.idleMs ?? 120_000;
    this.backend = opts.backend ?? 'onnx';
  }

  /** Number of tasks waiting (not running). */
  get queued(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  run(task: TileTask, opts: { signal?: AbortSignal; group?: unknown } = {}): Promise<TileResult> {
    return this.enqueue(task, opts);
  }

  /** Starts the workers (loads tf) ahead of time; optional. */
  async warmup(): Promise<void> {
    await Promise.all(Array.from({ length: this.size }, (_, i) => this.enqueue({ kind: 'warmup' }, { group: `warmup-${i}` })));
  }

  private enqueue(task: Pending['task'], opts: { signal?: AbortSignal; group?: unknown }): Promise<TileResult> {
    if (this.closed) return Promise.reject(new Error('The AI worker pool is closed'));
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(new AbortError());
    return new Promise<TileResult>((resolve, reject) => {
      const p: Pending = { id: this.nextId++, task, group: opts.group ?? null, signal, resolve, reject };
      if (signal) {
        let w = this.watched.get(signal);
        if (!w) {
          const entry = {
            tasks: new Set<Pending>(),
            onAbort: () => {
              this.watched.delete(signal);
              // Queued tasks first, so killing a running one does not start another of this job.
              const all = [...entry.tasks];
              const running = new Set(this.slots.map((sl) => sl.busy));
              for (const t of all) if (!running.has(t)) this.abortTask(t);
              for (const t of all) if (running.has(t)) this.abortTask(t);
            },
          };
          w = entry;
          this.watched.set(signal, entry);
          signal.addEventListener('abort', entry.onAbort, { once: true });
        }
        w.tasks.add(p);
      }
      let q = this.queues.get(p.group);
      if (!q) {
        q = [];
        this.queues.set(p.group, q);
        this.order.push(p.group);
      }
      q.push(p);
      this.pump();
    });
  }

  private settle(p: Pending): void {
    if (!p.signal) return;
    const w = this.watched.get(p.signal);
    if (!w) return;
    w.tasks.delete(p);
    if (w.tasks.size === 0) {
      p.signal.removeEventListener('abort', w.onAbort);
      this.watched.delete(p.signal);
    }
  }

  private abortTask(p: Pending): void {
    const q = this.queues.get(p.group);
    const i = q ? q.indexOf(p) : -1;
    if (q && i >= 0) {
      q.splice(i, 1);
      if (q.length === 0) this.dropGroup(p.group);
      this.settle(p);
      p.reject(new AbortError());
      return;
    }
    const slot = this.slots.find((s) => s.busy === p);
    if (slot) {
      slot.busy = null;
      if (this.isNative(p)) slot.draining = true;
      else this.kill(slot);
      this.settle(p);
      p.reject(new AbortError());
      this.pump();
    }
  }

  /** Whether a task runs inside onnxruntime-node (must not be terminated mid-run). */
  private isNative(p: Pending): boolean {
    return p.task.kind === 'esrgan' && (p.task.backend ?? this.backend) === 'onnx';
  }

  private dropGroup(g: unknown): void {
    this.queues.delete(g);
    const i = this.order.indexOf(g);
    if (i >= 0) this.order.splice(i, 1);
  }

  private take(): Pending | undefined {
    while (this.order.length) {
      const g = this.order.shift();
      const q = this.queues.get(g);
      if (!q || q.length === 0) {
        this.queues.delete(g);
        continue;
      }
      const p = q.shift()!;
      if (q.length) this.order.push(g);
      else this.queues.delete(g);
      return p;
    }
    return undefined;
  }

  private pump(): void {
    for (;;) {
      if (!this.order.length) return;
      let slot = this.slots.find((s) => !s.busy && !s.dead && !s.draining);
      if (!slot) {
        if (this.slots.length >= this.size) return;
        slot = this.spawn();
      }
      const p = this.take();
      if (!p) return;
      this.start(slot, p);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL, { execArgv: [] });
    const slot: Slot = { worker, busy: null, idleTimer: null, dead: false, draining: false, onSettled: [] };
    worker.on('message', (m: { id: number; ok: boolean; width?: number; height?: number; data?: Uint8Array; deblocked?: Float32Array[]; error?: string }) => {
      for (const f of slot.onSettled.splice(0)) f();
      if (slot.draining) {
        slot.draining = false;
        if (this.closed) return;
        if (m.ok) this.idle(slot);
        else this.kill(slot);
        this.pump();
        return;
      }
      const p = slot.busy;
      if (!p || p.id !== m.id) return;
      slot.busy = null;
      this.settle(p);
      if (m.ok) {
        p.resolve({ width: m.width!, height: m.height!, data: m.data!, ...(m.deblocked ? { deblocked: m.deblocked } : {}) });
        this.idle(slot);
      } else {
        p.reject(new Error(`AI worker: ${m.error}`));
        // A failed inference (e.g. wasm out of memory) may leave the heap unusable: start afresh.
        this.kill(slot);
      }
      this.pump();
    });
    const onGone = (err?: Error) => {
      for (const f of slot.onSettled.splice(0)) f();
      if (slot.dead) return;
      slot.dead = true;
      this.slots = this.slots.filter((s) => s !== slot);
      const p = slot.busy;
      slot.busy = null;
      if (p) {
        this.settle(p);
        p.reject(err ?? new Error('AI worker exited unexpectedly'));
      }
      if (!this.closed) this.pump();
    };
    worker.on('error', (e: Error) => onGone(e));
    worker.on('exit', () => onGone());
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, p: Pending): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.busy = p;
    slot.worker.ref();
    const t = p.task;
    if (t.kind === 'warmup') slot.worker.postMessage({ id: p.id, kind: 'warmup', backend: this.backend });
    else slot.worker.postMessage({ id: p.id, backend: this.backend, ...t }, [t.data.buffer as ArrayBuffer, ...(t.deblocked ?? []).map((c) => c.buffer as ArrayBuffer)]);
  }

  private idle(slot: Slot): void {
    slot.worker.unref();
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      if (!slot.busy) this.kill(slot);
    }, this.idleMs);
    slot.idleTimer.unref();
  }

  private kill(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.dead = true;
    this.slots = this.slots.filter((s) => s !== slot);
    void slot.worker.terminate();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queues.values())
      for (const p of q) {
        this.settle(p);
        p.reject(new Error('The AI worker pool is closed'));
      }
    this.queues.clear();
    this.order = [];
    const slots = this.slots;
    this.slots = [];
    await Promise.all(
      slots.map(async (s) => {
        if (s.idleTimer) clearTimeout(s.idleTimer);
        const p = s.busy;
        s.busy = null;
        if (p) {
          this.settle(p);
          p.reject(new Error('The AI worker pool is closed'));
        }
        // Let a native (ONNX Runtime) inference end first: terminating inside it aborts the process.
        if (s.draining || (p && this.isNative(p))) await new Promise<void>((r) => s.onSettled.push(r));
        s.dead = true;
        await s.worker.terminate();
      }),
    );
  }
}
