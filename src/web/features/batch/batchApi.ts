import { useEffect, useRef } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { BATCH_EVENT, type Batch, type BatchEstimate, type BatchRequest, type batchList } from '../../../shared/batch.schema.js';
import { apiGet, apiPost } from '../../lib/api';
import { useServerEvent, useServerReconnect } from '../../lib/events';
import { applyJobEvent } from './batchProgress';

/** Batch Processing as the web app sees it (src/shared/batch.schema.ts is the contract). */
export const batchKeys = {
  all: ['batches'] as const,
  list: ['batches', 'list'] as const,
  one: (id: string) => ['batches', 'one', id] as const,
};

const batchPath = (id: string) => `/api/batches/${encodeURIComponent(id)}`;

export const estimateBatch = (request: BatchRequest, signal?: AbortSignal) =>
  apiPost<BatchEstimate>('/api/batches/estimate', request, signal);

export const createBatch = (request: BatchRequest) => apiPost<Batch>('/api/batches', request);

export const cancelBatch = (id: string) => apiPost<Batch>(`${batchPath(id)}/cancel`);

export const retryFailedBatch = (id: string) => apiPost<Batch>(`${batchPath(id)}/retry-failed`);

/** A plain link: the browser streams the ZIP itself. */
export const batchDownloadHref = (id: string) => `${batchPath(id)}/download`;

/** The 402 body of POST /api/batches when the balance covers only part of the batch. */
export interface InsufficientBatchBody {
  affordable_count: number;
  total_cost: number;
  balance: number;
}

/** Batches per page of the list (the recent list shows the first page only). */
const BATCH_PAGE = 10;

/** The user's batches, newest first, a page at a time; `total` counts them all. */
export function useBatchList() {
  const query = useInfiniteQuery({
    queryKey: batchKeys.list,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      apiGet<z.infer<typeof batchList>>(`/api/batches?limit=${BATCH_PAGE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`, signal),
    getNextPageParam: (last) => last.next_cursor,
    staleTime: 10_000,
  });
  const pages = query.data?.pages;
  return { query, items: pages?.flatMap((p) => p.items) ?? [], recent: pages?.[0]?.items ?? [], total: pages?.[0]?.total };
}

/**
 * One batch, kept live: item 'job' events patch their progress at once, and
 * any change of state (a 'batch' event, an item that ended) re-reads the
 * batch, at most a few times a second.
 */
export function useBatch(id: string) {
  const qc = useQueryClient();
  const key = batchKeys.one(id);
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiGet<Batch>(batchPath(id), signal),
    staleTime: 0,
    retry: (count, err) => (err as { status?: number }).status !== 404 && count < 2,
  });

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reload = () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      void qc.invalidateQueries({ queryKey: key, exact: true });
    }, 300);
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  useServerEvent(BATCH_EVENT, (ev) => {
    if (ev.id === id) reload();
  });
  useServerEvent('job', (ev) => {
    if (ev.batch_id !== id) return;
    qc.setQueryData<Batch>(key, (b) => (b ? applyJobEvent(b, ev.id, ev) : b));
    if (ev.status !== 'running') reload();
  });
  useServerReconnect(reload);

  return query;
}
