import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messages } from '../../../../shared/messages.js';
import { TOOLS, type ToolEndpoint, type ToolJob } from '../../../../shared/tools.js';
import { queryKeys } from '../../../lib/queryKeys';
import { useServerEvent, useServerReconnect } from '../../../lib/events';
import { libraryKeys } from '../../library/api';

/**
 * One tool run, from the click to the result (SPEC §4: idle -> processing ->
 * result | error).
 *
 *   const run = useToolRun<MyForm>('fal-upscaler');
 *   run.submit(body, form);      // POST /functions/v1/fal-upscaler
 *   run.phase                    // 'idle' | 'processing' | 'result' | 'error'
 *   run.progress                 // real progress from the job's SSE events
 *   run.cancel();                // POST /api/jobs/:id/cancel (refunded)
 *   run.reset();                 // back to the form
 *
 * - Every submit carries a fresh `Idempotency-Key` (a UUID), reused by every
 *   retry of that same submit, so a double click, a network retry or a
 *   reload never charges twice.
 * - The POST waits for the result. Meanwhile the job id is learnt from the
 *   job's own SSE event (or GET /api/jobs), so that the overlay can show the
 *   job's real progress and the run can be cancelled.
 * - A 202 (still running when the server stopped waiting) is followed via
 *   SSE + GET /api/jobs/:id, then GET /api/jobs/:id/result.
 * - The run is remembered in sessionStorage per tool: after a reload the
 *   overlay comes back and follows the job to its result (with the job id:
 *   GET /api/jobs/:id; without it yet: the same POST with the same key, which
 *   the server answers with the first job instead of charging again).
 */

export type ToolResult = Record<string, unknown> & {
  job_id?: string;
  library_item_id?: string | null;
  energy_used?: number;
  model?: string;
};

export type RunPhase = 'idle' | 'processing' | 'result' | 'error';

export interface RunProgress {
  /** 'submitting' until the server has accepted the run. */
  status: ToolJob['status'] | 'submitting';
  stage: string | null;
  /** 0..1 */
  fraction: number;
}

export interface ToolRunState<F> {
  phase: RunPhase;
  result: ToolResult | null;
  error: string | null;
  jobId: string | null;
  /** ms since epoch of the click (survives a reload). */
  startedAt: number | null;
  progress: RunProgress;
  /** The form values of the current / last run (restored after a reload). */
  form: F | null;
  /** The body sent for the current / last run. */
  body: Record<string, unknown> | null;
  /** True after a reload brought a running job back. */
  reattached: boolean;
  canceling: boolean;
  /** The run was charged, then failed or was cancelled: its ENERGY went back. */
  refunded: boolean;
}

export interface ToolRun<F> extends ToolRunState<F> {
  submit(body: Record<string, unknown>, form?: F): void;
  cancel(): Promise<void>;
  /** Back to the form (the result stays in the library). */
  reset(): void;
}

interface StoredRun<F> {
  v: 1;
  key: string;
  body: Record<string, unknown>;
  form?: F;
  jobId: string | null;
  startedAt: number;
}

interface Active<F> extends StoredRun<F> {
  abort: AbortController;
  done: boolean;
  /** Open jobs of this tool that existed before the click (never adopted). */
  exclude: Set<string>;
  fetchingResult: boolean;
}

const STORAGE_PREFIX = 'pixelrush.toolRun.';
const POLL_MS = 3_000;
const NETWORK_ERROR = 'Could not reach the server. Check your connection and try again.';
const OPEN: ReadonlySet<string> = new Set(['queued', 'running']);
const ENDED: ReadonlySet<string> = new Set(['succeeded', 'failed', 'canceled']);

const storageKey = (endpoint: ToolEndpoint) => `${STORAGE_PREFIX}${endpoint}`;

function readStored<F>(endpoint: ToolEndpoint): StoredRun<F> | null {
  try {
    const raw = sessionStorage.getItem(storageKey(endpoint));
    if (!raw) return null;
    const s = JSON.parse(raw) as StoredRun<F>;
    if (s?.v !== 1 || typeof s.key !== 'string' || typeof s.startedAt !== 'number' || !s.body) return null;
    // Past the tool's time limit (plus the sweeper's grace) the run has ended for sure.
    if (Date.now() - s.startedAt > (TOOLS[endpoint].timeLimitSeconds + 300) * 1000) return null;
    return s;
  } catch {
    return null;
  }
}

function writeStored<F>(endpoint: ToolEndpoint, run: StoredRun<F> | null) {
  try {
    if (run) sessionStorage.setItem(storageKey(endpoint), JSON.stringify(run));
    else sessionStorage.removeItem(storageKey(endpoint));
  } catch {
    /* private mode: reattach is best effort */
  }
}

function newKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Older browsers: RFC 4122 v4 from getRandomValues.
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    }, { once: true });
  });

async function getJson(path: string, signal: AbortSignal, init?: RequestInit): Promise<{ status: number; data: any }> {
  const res = await fetch(path, { credentials: 'include', headers: { Accept: 'application/json' }, signal, ...init });
  const text = await res.text();
  let data: any = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  return { status: res.status, data };
}

const IDLE_PROGRESS: RunProgress = { status: 'submitting', stage: null, fraction: 0 };

function initialState<F>(): ToolRunState<F> {
  return {
    phase: 'idle',
    result: null,
    error: null,
    jobId: null,
    startedAt: null,
    progress: IDLE_PROGRESS,
    form: null,
    body: null,
    reattached: false,
    canceling: false,
    refunded: false,
  };
}

export function useToolRun<F = unknown>(endpoint: ToolEndpoint): ToolRun<F> {
  const tool = TOOLS[endpoint];
  const qc = useQueryClient();
  const [state, setState] = useState<ToolRunState<F>>(initialState);
  const activeRef = useRef<Active<F> | null>(null);
  /** Job ids this page has seen in events before the current submit. */
  const seenRef = useRef(new Set<string>());

  const refreshAfterRun = useCallback(() => {
    void qc.invalidateQueries({ queryKey: queryKeys.me });
    void qc.invalidateQueries({ queryKey: queryKeys.transactions });
    void qc.invalidateQueries({ queryKey: libraryKeys.root });
  }, [qc]);

  const finish = useCallback(
    (active: Active<F>, outcome: { result: ToolResult } | { error: string; refunded?: boolean }) => {
      if (active.done || activeRef.current !== active) return;
      active.done = true;
      active.abort.abort();
      writeStored(endpoint, null);
      setState((s) => ({
        ...s,
        phase: 'result' in outcome ? 'result' : 'error',
        result: 'result' in outcome ? outcome.result : null,
        error: 'error' in outcome ? outcome.error : null,
        jobId: active.jobId ?? ('result' in outcome ? ((outcome.result.job_id as string | undefined) ?? null) : null),
        canceling: false,
        refunded: 'error' in outcome && !!outcome.refunded,
        progress: 'result' in outcome ? { status: 'succeeded', stage: 'Done', fraction: 1 } : s.progress,
      }));
      refreshAfterRun();
    },
    [endpoint, refreshAfterRun],
  );

  /** A terminal answer of the tool call or of /api/jobs/:id/result. */
  const settleFrom = useCallback(
    (active: Active<F>, status: number, data: any): 'done' | 'running' => {
      if (status === 200 && data && typeof data === 'object') {
        finish(active, { result: data as ToolResult });
        return 'done';
      }
      if (status === 202) return 'running';
      if (status === 401) {
        void qc.invalidateQueries({ queryKey: queryKeys.me });
        finish(active, { error: messages.noToken });
        return 'done';
      }
      const text = data && typeof data === 'object' && typeof data.error === 'string' && data.error ? data.error : tool.failure;
      // 422 is a run that was charged and then failed: the server refunds it (400 / 402 never charge).
      finish(active, { error: text, refunded: status === 422 && !!data?.job_id });
      return 'done';
    },
    [finish, qc, tool.failure],
  );

  const setJobId = useCallback(
    (active: Active<F>, jobId: string) => {
      if (active.jobId === jobId || active.done) return;
      active.jobId = jobId;
      writeStored(endpoint, { v: 1, key: active.key, body: active.body, form: active.form, jobId, startedAt: active.startedAt });
      setState((s) => (activeRef.current === active ? { ...s, jobId, progress: { ...s.progress, status: s.progress.status === 'submitting' ? 'queued' : s.progress.status } } : s));
      void follow(active);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [endpoint],
  );

  const applyJob = useCallback((active: Active<F>, job: Pick<ToolJob, 'status' | 'progress_stage' | 'progress_fraction'>) => {
    if (activeRef.current !== active || active.done) return;
    setState((s) => ({
      ...s,
      progress: {
        status: job.status,
        stage: job.progress_stage ?? s.progress.stage,
        // Never move backwards (events and polls may arrive out of order).
        fraction: Math.max(s.progress.fraction, Math.min(1, Math.max(0, Number(job.progress_fraction) || 0))),
      },
    }));
  }, []);

  const fetchResult = useCallback(
    async (active: Active<F>) => {
      if (active.fetchingResult || active.done || !active.jobId) return;
      active.fetchingResult = true;
      try {
        const { status, data } = await getJson(`/api/jobs/${encodeURIComponent(active.jobId)}/result`, active.abort.signal);
        settleFrom(active, status, data);
      } catch {
        /* aborted or offline: the poll tries again */
      } finally {
        active.fetchingResult = false;
      }
    },
    [settleFrom],
  );

  /** Follows a known job until it ends: slow polls as a safety net under the SSE events. */
  const follow = useCallback(
    async (active: Active<F>) => {
      const signal = active.abort.signal;
      const jobId = active.jobId;
      while (!signal.aborted && !active.done && active.jobId === jobId && jobId) {
        try {
          const { status, data } = await getJson(`/api/jobs/${encodeURIComponent(jobId)}`, signal);
          if (status === 200 && data) {
            applyJob(active, data as ToolJob);
            if (ENDED.has((data as ToolJob).status)) {
              await fetchResult(active);
              if (active.done) return;
            }
          } else if (status === 404) {
            finish(active, { error: tool.failure });
            return;
          } else if (status === 401) {
            settleFrom(active, 401, data);
            return;
          }
        } catch {
          /* offline for a moment: try again */
        }
        await sleep(POLL_MS, signal);
      }
    },
    [applyJob, fetchResult, finish, settleFrom, tool.failure],
  );

  /** Until the job id is known: look for our job among the open ones (backs up the SSE event). */
  const discover = useCallback(
    async (active: Active<F>) => {
      const signal = active.abort.signal;
      await sleep(1_500, signal);
      while (!signal.aborted && !active.done && !active.jobId) {
        try {
          const { status, data } = await getJson('/api/jobs?limit=10', signal);
          const items: ToolJob[] = status === 200 && Array.isArray(data?.items) ? data.items : [];
          const mine = items.find(
            (j) => j.tool === endpoint && OPEN.has(j.status) && !active.exclude.has(j.id) && Date.parse(j.created_at) >= active.startedAt - 120_000,
          );
          if (mine) {
            setJobId(active, mine.id);
            applyJob(active, mine);
            return;
          }
        } catch {
          /* try again */
        }
        await sleep(2_000, signal);
      }
    },
    [applyJob, endpoint, setJobId],
  );

  /** The tool call itself (first submit, or a replay with the same key after a reload). */
  const post = useCallback(
    async (active: Active<F>) => {
      const signal = active.abort.signal;
      for (let attempt = 0; !signal.aborted && !active.done; attempt++) {
        let status: number;
        let data: any;
        try {
          ({ status, data } = await getJson(`/functions/v1/${endpoint}`, signal, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': active.key },
            body: JSON.stringify(active.body),
          }));
        } catch {
          if (signal.aborted || active.done) return;
          // The connection dropped: the run (if it started) goes on. Follow it, or replay the same submit.
          if (active.jobId) return;
          if (attempt < 3) {
            await sleep(1_500 * (attempt + 1), signal);
            continue;
          }
          finish(active, { error: NETWORK_ERROR });
          return;
        }
        if (signal.aborted || active.done) return;
        // A proxy gave up waiting: same as a dropped connection.
        if (status === 502 || status === 503 || status === 504) {
          if (active.jobId) return;
          if (attempt < 3) {
            await sleep(1_500 * (attempt + 1), signal);
            continue;
          }
        }
        if (status === 202 && typeof data?.job_id === 'string') {
          setJobId(active, data.job_id);
          return;
        }
        settleFrom(active, status, data);
        return;
      }
    },
    [endpoint, finish, setJobId, settleFrom],
  );

  const start = useCallback(
    (stored: StoredRun<F>, reattached: boolean) => {
      activeRef.current?.abort.abort();
      const active: Active<F> = { ...stored, abort: new AbortController(), done: false, exclude: new Set(), fetchingResult: false };
      activeRef.current = active;
      writeStored(endpoint, stored);
      setState({
        ...initialState<F>(),
        phase: 'processing',
        startedAt: stored.startedAt,
        jobId: stored.jobId,
        form: stored.form ?? null,
        body: stored.body,
        reattached,
        progress: { status: stored.jobId ? 'queued' : 'submitting', stage: null, fraction: 0 },
      });
      return active;
    },
    [endpoint],
  );

  const submit = useCallback(
    (body: Record<string, unknown>, form?: F) => {
      // One run at a time per tool: a second click while processing is ignored.
      if (activeRef.current && !activeRef.current.done) return;
      const active = start({ v: 1, key: newKey(), body, form, jobId: null, startedAt: Date.now() }, false);
      for (const id of seenRef.current) active.exclude.add(id);
      void (async () => {
        // Open runs of this tool from before the click are never mistaken for this one.
        try {
          const { status, data } = await getJson('/api/jobs?limit=20', active.abort.signal);
          if (status === 200 && Array.isArray(data?.items)) {
            for (const j of data.items as ToolJob[]) if (j.tool === endpoint && OPEN.has(j.status)) active.exclude.add(j.id);
          }
        } catch {
          /* not essential */
        }
        if (active.abort.signal.aborted) return;
        void discover(active);
        await post(active);
      })();
    },
    [discover, endpoint, post, start],
  );

  // Reattach after a reload.
  useEffect(() => {
    const stored = readStored<F>(endpoint);
    if (!stored) {
      writeStored(endpoint, null);
      return;
    }
    const active = start(stored, true);
    if (stored.jobId) void follow(active);
    else {
      void discover(active);
      void post(active); // same key: the server answers with the first job, no second charge
    }
    return () => {
      // Leaving the view: stop following (the run goes on; coming back reattaches).
      if (activeRef.current === active) activeRef.current = null;
      active.abort.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [endpoint]);

  // Leaving the view stops following (the run goes on; coming back reattaches).
  useEffect(
    () => () => {
      activeRef.current?.abort.abort();
      activeRef.current = null;
    },
    [],
  );

  useServerEvent('job', (raw) => {
    const ev = raw as Partial<ToolJob> | null;
    if (!ev || typeof ev.id !== 'string') return;
    const active = activeRef.current;
    if (!active || active.done) {
      seenRef.current.add(ev.id);
      return;
    }
    if (!active.jobId) {
      // Our job's first event: same tool, just created, not one we knew before.
      if (ev.tool === endpoint && ev.status && OPEN.has(ev.status) && !active.exclude.has(ev.id) && !seenRef.current.has(ev.id)) {
        setJobId(active, ev.id);
      } else {
        seenRef.current.add(ev.id);
        return;
      }
    }
    if (ev.id !== active.jobId) return;
    if (ev.status) applyJob(active, { status: ev.status, progress_stage: ev.progress_stage ?? null, progress_fraction: ev.progress_fraction ?? 0 });
    if (ev.status && ENDED.has(ev.status)) void fetchResult(active);
  });

  // Events may have been missed while the stream was down: ask for the job now.
  useServerReconnect(() => {
    const active = activeRef.current;
    if (active && !active.done && active.jobId) void fetchResult(active);
  });

  const cancel = useCallback(async () => {
    const active = activeRef.current;
    if (!active || active.done || !active.jobId) return;
    setState((s) => ({ ...s, canceling: true }));
    try {
      const { status, data } = await getJson(`/api/jobs/${encodeURIComponent(active.jobId)}/cancel`, new AbortController().signal, {
        method: 'POST',
      });
      if (status === 200) {
        finish(active, { error: (data as ToolJob)?.error || 'The run was cancelled. Your ENERGY has been refunded.', refunded: true });
        return;
      }
      // 409: it ended a moment ago; its outcome is on its way.
      void fetchResult(active);
    } catch {
      /* offline: the run goes on */
    }
    setState((s) => ({ ...s, canceling: false }));
  }, [fetchResult, finish]);

  const reset = useCallback(() => {
    const active = activeRef.current;
    if (active && !active.done) return; // never drop a running job from the screen
    activeRef.current = null;
    writeStored(endpoint, null);
    setState((s) => ({ ...initialState<F>(), form: s.form, body: s.body }));
  }, [endpoint]);

  return { ...state, submit, cancel, reset };
}
