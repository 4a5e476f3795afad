import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { BATCH_EVENT, type Batch, type BatchRequest } from '../../../shared/batch.schema.js';
import { call, client } from '../../lib/api';
import { useServerEvent, useServerReconnect } from '../../lib/events';
import { useCursorPages } from '../../lib/useCursorPages';
import { applyJobEvent } from './batchProgress';

/** Batch Processing as the web app sees it (src/shared/batch.schema.ts is the contract). */
export const batchKeys = {
  all: ['batches'] as const,
  list: ['batches', 'list'] as const,
  one: (id: string) => ['batches', 'one', id] as const,
};

export const estimateBatch = (request: BatchRequest, signal?: AbortSignal) =>
  call(client.POST('/api/batches/estimate', { body: request, signal }));

export const createBatch = (request: BatchRequest) => call(client.POST('/api/batches', { body: request }));

export const cancelBatch = (id: string) => call(client.POST('/api/batches/{id}/cancel', { params: { path: { id } } }));

export const retryFailedBatch = (id: string) => call(client.POST('/api/batches/{id}/retry-failed', { params: { path: { id } } }));

/** A plain link: the browser streams the ZIP itself. */
export const batchDownloadHref = (id: string) => `/api/batches/${encodeURIComponent(id)}/download`;

/** Batches per page of the list (the recent list shows the first page only). */
const BATCH_PAGE = 10;

/** The user's batches, newest first, a page at a time; `total` counts them all. */
export function useBatchList() {
  const { query, items } = useCursorPages({
    queryKey: batchKeys.list,
    fetchPage: (cursor, signal) => call(client.GET('/api/batches', { params: { query: { limit: BATCH_PAGE, cursor } }, signal })),
    staleTime: 10_000,
  });
  const pages = query.data?.pages;
  return { query, items, recent: pages?.[0]?.items ?? [], total: pages?.[0]?.total };
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
    queryFn: ({ signal }) => call(client.GET('/api/batches/{id}', { params: { path: { id } }, signal })),
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
