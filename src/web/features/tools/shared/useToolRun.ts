import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { accessMessages } from '../../../../shared/access.messages.js';
import { toolAccepted, toolFailed } from '../../../../shared/tool-results.js';
import { toolJobSchema, toolValidationError, type ToolJob } from '../../../../shared/tools.js';
import { client, toolRuns } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';
import { useServerEvent, useServerReconnect } from '../../../lib/events';
import { libraryKeys } from '../../library/api';
import type { RunnableTool, ToolResult } from './answers';

/**
 * One tool run, from the click to the result (requirements §4: idle -> processing ->
 * result | error).
 *
 *   const run = useToolRun<MyForm>(tool);   // a registry tool: its info and contract
 *   run.submit(body, form);      // POST /functions/v1/<tool>
 *   run.phase                    // 'idle' | 'processing' | 'result' | 'error'
 *   run.result                   // the answer, read with the tool's answer schema
 *   run.progress                 // real progress from the job's SSE events
 *   run.cancel();                // POST /api/jobs/:id/cancel (refunded)
 *   run.reset();                 // back to the form
 *
 * - Every submit carries a fresh `Idempotency-Key` (a UUID), reused by every
 *   retry of that same submit, so a double click, a network retry or a
 *   reload never charges twice.
 * - The POST asks `Prefer: respond-async`: the server charges, queues and
 *   answers 202 with the job id at once. The run is then followed by that id:
 *   its SSE events carry progress and the end, GET /api/jobs/:id every few
 *   seconds backs them up, and GET /api/jobs/:id/result gives the answer.
 * - The run is remembered in sessionStorage per tool: after a reload the
 *   overlay comes back and follows the job to its result (with the job id:
 *   GET /api/jobs/:id; without it yet: the same POST with the same key, which
 *   the server answers with the first job instead of charging again).
 */

export type { ToolResult } from './answers';

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
  /** The user cancelled the run: `error` then holds a neutral notice, not a failure. */
  cancelled: boolean;
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
  fetchingResult: boolean;
}

const STORAGE_PREFIX = 'pixelrush.toolRun.';
const POLL_MS = 3_000;
const NETWORK_ERROR = 'Could not reach the server. Check your connection and try again.';
/** What a run the user cancelled says (neutral: nothing went wrong). */
export function cancelledNotice(refunded: number): string {
  return refunded > 0 ? `Cancelled, ${refunded} ENERGY refunded` : 'Cancelled';
}

const ENDED: ReadonlySet<string> = new Set(['succeeded', 'failed', 'canceled']);

const storageKey = (endpoint: string) => `${STORAGE_PREFIX}${endpoint}`;

function readStored<F>({ endpoint, timeLimitSeconds }: RunnableTool['info']): StoredRun<F> | null {
  try {
    const raw = sessionStorage.getItem(storageKey(endpoint));
    if (!raw) return null;
    const s = JSON.parse(raw) as StoredRun<F>;
    if (s?.v !== 1 || typeof s.key !== 'string' || typeof s.startedAt !== 'number' || !s.body) return null;
    // Past the tool's time limit (plus the sweeper's grace) the run has ended for sure.
    if (Date.now() - s.startedAt > (timeLimitSeconds + 300) * 1000) return null;
    return s;
  } catch {
    return null;
  }
}

function writeStored<F>(endpoint: string, run: StoredRun<F> | null) {
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

/** What following a run reads of GET /api/jobs/:id. */
const jobProgress = toolJobSchema.pick({ status: true, progress_stage: true, progress_fraction: true });

/** What any refusal may carry: the server's words, and the run's id when it had been charged. */
const refusal = z.looseObject({ error: z.string().optional(), job_id: z.string().optional() });

/** The status and body of a client call: its typed answer on 2xx, the refusal's body otherwise. */
interface Reply {
  status: number;
  data: unknown;
}

/**
 * Awaits a client call. A 2xx body that is not JSON comes back as no body (its schema then refuses it)
 * rather than as a dropped connection, which would be retried.
 */
async function reply(request: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<Reply> {
  try {
    const { data, error, response } = await request;
    return { status: response.status, data: data ?? error };
  } catch (err) {
    if (err instanceof SyntaxError) return { status: 200, data: null };
    throw err;
  }
}

const IDLE_PROGRESS: RunProgress = { status: 'submitting', stage: null, fraction: 0 };

/** A run that has not started (also what a test stands in for a run with). */
export function initialState<F>(): ToolRunState<F> {
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
    cancelled: false,
  };
}

export function useToolRun<F = unknown>(runnable: RunnableTool): ToolRun<F> {
  const { info: tool, readAnswer } = runnable;
  const { endpoint } = tool;
  const qc = useQueryClient();
  const [state, setState] = useState<ToolRunState<F>>(initialState);
  const activeRef = useRef<Active<F> | null>(null);

  const refreshAfterRun = useCallback(() => {
    void qc.invalidateQueries({ queryKey: queryKeys.me });
    void qc.invalidateQueries({ queryKey: queryKeys.transactions });
    void qc.invalidateQueries({ queryKey: libraryKeys.root });
  }, [qc]);

  const finish = useCallback(
    (active: Active<F>, outcome: { result: ToolResult } | { error: string; refunded?: boolean; cancelled?: boolean }) => {
      if (active.done || activeRef.current !== active) return;
      active.done = true;
      active.abort.abort();
      writeStored(endpoint, null);
      setState((s) => ({
        ...s,
        phase: 'result' in outcome ? 'result' : 'error',
        result: 'result' in outcome ? outcome.result : null,
        error: 'error' in outcome ? outcome.error : null,
        jobId: active.jobId ?? ('result' in outcome ? outcome.result.job_id : null),
        canceling: false,
        refunded: 'error' in outcome && !!outcome.refunded,
        cancelled: 'error' in outcome && !!outcome.cancelled,
        progress: 'result' in outcome ? { status: 'succeeded', stage: 'Done', fraction: 1 } : s.progress,
      }));
      refreshAfterRun();
    },
    [endpoint, refreshAfterRun],
  );

  /** A terminal answer of the tool call or of /api/jobs/:id/result. */
  const settleFrom = useCallback(
    (active: Active<F>, { status, data }: Reply): 'done' | 'running' => {
      if (status === 200) {
        const result = readAnswer(data);
        if (!result) console.warn(`the answer of ${endpoint} does not match its schema`);
        finish(active, result ? { result } : { error: tool.failure });
        return 'done';
      }
      if (status === 202) return 'running';
      if (status === 401) {
        void qc.invalidateQueries({ queryKey: queryKeys.me });
        finish(active, { error: accessMessages.noToken });
        return 'done';
      }
      const failed = status === 422 ? toolFailed.safeParse(data) : null;
      if (failed?.success && failed.data.status === 'canceled') {
        finish(active, { error: cancelledNotice(failed.data.energy_refunded), refunded: true, cancelled: true });
        return 'done';
      }
      const said = refusal.safeParse(data);
      const text = (said.success && said.data.error) || tool.failure;
      // 422 is a run that was charged and then failed: the server refunds it (400 / 402 never charge).
      finish(active, { error: text, refunded: status === 422 && said.success && !!said.data.job_id });
      return 'done';
    },
    [endpoint, finish, qc, readAnswer, tool.failure],
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
        const answer = await reply(client.GET('/api/jobs/{id}/result', { params: { path: { id: active.jobId } }, signal: active.abort.signal }));
        settleFrom(active, answer);
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
          const answer = await reply(client.GET('/api/jobs/{id}', { params: { path: { id: jobId } }, signal }));
          const { status } = answer;
          const job = status === 200 ? jobProgress.safeParse(answer.data) : null;
          if (job?.success) {
            applyJob(active, job.data);
            if (ENDED.has(job.data.status)) {
              await fetchResult(active);
              if (active.done) return;
            }
          } else if (status === 404) {
            finish(active, { error: tool.failure });
            return;
          } else if (status === 401) {
            settleFrom(active, answer);
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

  /** The tool call itself (first submit, or a replay with the same key after a reload). */
  const post = useCallback(
    async (active: Active<F>) => {
      const signal = active.abort.signal;
      const body = active.body;
      // The form checked the body before the click; a run brought back after a reload was stored unchecked.
      const problem = toolValidationError(runnable.body, body);
      if (problem) {
        finish(active, { error: problem });
        return;
      }
      for (let attempt = 0; !signal.aborted && !active.done; attempt++) {
        let answer: Reply;
        try {
          answer = await reply(
            toolRuns.POST(`/functions/v1/${endpoint}`, {
              params: { header: { 'idempotency-key': active.key, prefer: 'respond-async' } },
              body,
              signal,
            }),
          );
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
        const { status } = answer;
        if (status === 502 || status === 503 || status === 504) {
          if (active.jobId) return;
          if (attempt < 3) {
            await sleep(1_500 * (attempt + 1), signal);
            continue;
          }
        }
        const accepted = status === 202 ? toolAccepted.safeParse(answer.data) : null;
        if (accepted?.success) {
          setJobId(active, accepted.data.job_id);
          return;
        }
        settleFrom(active, answer);
        return;
      }
    },
    [endpoint, finish, runnable, setJobId, settleFrom],
  );

  const start = useCallback(
    (stored: StoredRun<F>, reattached: boolean) => {
      activeRef.current?.abort.abort();
      const active: Active<F> = { ...stored, abort: new AbortController(), done: false, fetchingResult: false };
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
      void post(active);
    },
    [post, start],
  );

  // Reattach after a reload.
  useEffect(() => {
    const stored = readStored<F>(tool);
    if (!stored) {
      writeStored(endpoint, null);
      return;
    }
    const active = start(stored, true);
    if (stored.jobId) void follow(active);
    else void post(active); // same key: the server answers with the first job, no second charge
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

  useServerEvent('job', (ev) => {
    const active = activeRef.current;
    if (!active || active.done || ev.id !== active.jobId) return;
    applyJob(active, ev);
    if (ENDED.has(ev.status)) void fetchResult(active);
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
      const { data } = await client.POST('/api/jobs/{id}/cancel', { params: { path: { id: active.jobId } } });
      if (data) {
        finish(active, { error: cancelledNotice(data.cost), refunded: true, cancelled: true });
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
