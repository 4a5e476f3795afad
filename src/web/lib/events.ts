import { useEffect, useRef } from 'react';
import type { z } from 'zod';
import type { ServerEventData, ServerEventName } from '../../shared/events.schema.js';

/**
 * One shared EventSource on GET /api/events for the whole page. Features
 * subscribe by event name (`pricing`, `balance`, job progress...). If the
 * endpoint is missing or the connection drops, nothing breaks: we retry
 * with backoff in the background.
 */
export type ServerEventHandler = (data: unknown, event: MessageEvent) => void;

const EVENTS_URL = '/api/events';
const OPEN = '__open__';

const handlers = new Map<string, Set<ServerEventHandler>>();
const attached = new Map<string, (ev: Event) => void>();
let source: EventSource | null = null;
let refs = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retryDelay = 5_000;
let everOpened = false;

function dispatch(name: string, ev: MessageEvent) {
  let data: unknown = ev.data;
  if (typeof ev.data === 'string' && ev.data) {
    try {
      data = JSON.parse(ev.data);
    } catch {
      /* keep the raw text */
    }
  }
  for (const h of handlers.get(name) ?? []) {
    try {
      h(data, ev);
    } catch (err) {
      console.error(`server event handler for '${name}' failed`, err);
    }
  }
}

function attach(name: string) {
  if (!source || attached.has(name) || name === OPEN) return;
  const listener = (ev: Event) => dispatch(name, ev as MessageEvent);
  source.addEventListener(name, listener);
  attached.set(name, listener);
}

function connect() {
  if (typeof EventSource === 'undefined' || source) return;
  try {
    source = new EventSource(EVENTS_URL, { withCredentials: true });
  } catch {
    source = null;
    return;
  }
  attached.clear();
  for (const name of handlers.keys()) attach(name);
  source.addEventListener('open', (ev) => {
    retryDelay = 5_000;
    // On a reconnect, events may have been missed: tell subscribers to resync.
    if (everOpened) dispatch(OPEN, ev as MessageEvent);
    everOpened = true;
  });
  source.addEventListener('error', () => {
    // The browser retries by itself while CONNECTING; once CLOSED (e.g. 404) we do it, slowly.
    if (source && source.readyState === EventSource.CLOSED) {
      source = null;
      if (refs > 0) {
        clearTimeout(retryTimer);
        retryTimer = setTimeout(connect, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 60_000);
      }
    }
  });
}

function disconnect() {
  clearTimeout(retryTimer);
  source?.close();
  source = null;
  attached.clear();
  everOpened = false;
  retryDelay = 5_000;
}

/** Subscribe to a named server event; returns the unsubscribe function. */
export function subscribeServerEvent(name: string, handler: ServerEventHandler): () => void {
  let set = handlers.get(name);
  if (!set) handlers.set(name, (set = new Set()));
  set.add(handler);
  refs++;
  if (!source) connect();
  else attach(name);
  return () => {
    set!.delete(handler);
    if (set!.size === 0) {
      handlers.delete(name);
      const l = attached.get(name);
      if (l && source) source.removeEventListener(name, l);
      attached.delete(name);
    }
    refs--;
    if (refs <= 0) {
      refs = 0;
      disconnect();
    }
  };
}

/** The shared schemas, typed so that the schema of event `N` is known to give `ServerEventData<N>`. */
type EventSchemas = { [N in ServerEventName]: z.ZodType<ServerEventData<N>> };
let eventSchemas: EventSchemas | null = null;
let schemasLoading: Promise<EventSchemas> | null = null;

/**
 * Loads the event schemas. They carry zod, which the first page does not need: they load with the
 * first event instead of with the dashboard (its JavaScript budget), and once loaded parse at once.
 */
export function loadServerEventSchemas(): Promise<EventSchemas> {
  schemasLoading ??= import('../../shared/events.schema.js').then((m) => (eventSchemas = m.serverEventSchemas));
  return schemasLoading;
}

/** An event's data checked against its shared schema (loaded first); null (and a warning) when it does not match. */
export function parseServerEvent<N extends ServerEventName>(name: N, raw: unknown): ServerEventData<N> | null {
  if (!eventSchemas) throw new Error('Server event schemas are not loaded yet');
  const parsed = eventSchemas[name].safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  console.warn(`server event '${name}' does not match its schema`, parsed.error);
  return null;
}

/** Hands an event's parsed data on: at once when the schemas are loaded, else once they are (events keep their order). */
function deliver<N extends ServerEventName>(name: N, raw: unknown, handler: (data: ServerEventData<N>) => void): void {
  const handOn = () => {
    const data = parseServerEvent(name, raw);
    if (data) handler(data);
  };
  if (eventSchemas) handOn();
  else void loadServerEventSchemas().then(handOn);
}

/**
 * React hook: call `handler` for each server event called `name` while mounted,
 * with its data parsed by the event's shared schema (a malformed event is dropped).
 */
export function useServerEvent<N extends ServerEventName>(name: N, handler: (data: ServerEventData<N>) => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(
    () =>
      subscribeServerEvent(name, (raw) => deliver(name, raw, (data) => ref.current(data))),
    [name],
  );
}

/** Called after the event stream reconnects (events may have been missed while it was down). */
export function useServerReconnect(handler: () => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => subscribeServerEvent(OPEN, () => ref.current()), []);
}
