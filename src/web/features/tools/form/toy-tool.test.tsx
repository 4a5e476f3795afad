// @vitest-environment jsdom
import { Suspense, type ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { toyCard } from '../../../../../test/helpers/toy-tool/card';
import type { AuthUser } from '../../../app/auth';
import { NewBatch } from '../../batch/NewBatch';
import { ToolSections } from '../../dashboard/ToolSections';
import { parseViewPath, toolViewId, viewPath } from '../../dashboard/view-ids';
import { viewDefinition } from '../../dashboard/views';
import { addWebTool } from './registry';

/**
 * A sixth tool's web half is its folder (its card finds it a place in the grid): added here, the dashboard shows its
 * card, its address opens its view, the one form-driven view draws its declared form, and the real
 * run hook runs it (a stand-in server answers at the network: the call, the job's event, the
 * answer in the toy's own shape) and shows its result.
 */
const user: AuthUser = { id: 'u1', email: 'a@b.test', fullName: 'Ada', energyBalance: 50, totalEnergyPurchased: 0, energyOwed: 0, isVip: false, isAdmin: false };
vi.mock('../../../app/auth', () => ({ useAuth: () => ({ rolesLoaded: true, user }), useUser: () => user }));

const ITEM = '7d3c2f9a-1b2c-4d5e-8f90-123456789abc';

const JOB = 'toy-job-1';
const INVERTED = '/media/cat-negative.png';

/** What the client sent: the path, method, headers and body text. */
interface Sent {
  path: string;
  method: string;
  headers: Headers;
  body: string;
}
const sent: Sent[] = [];
/** The job ended: its result is there to fetch (the stand-in server's state). */
const job = { ended: false };

/** The toy's answer, in its own shape (test/helpers/toy-tool/schemas.ts). */
const toyAnswer = { job_id: JOB, library_item_id: null, energy_used: 3, model: 'toy-negate', inverted_url: INVERTED, original_url: '/media/cat.png', strength: 0.9 };

function answer({ path, method }: Sent): { status: number; body?: unknown } {
  if (path === '/api/pricing') {
    return { status: 200, body: [{ tool_name: 'toy-invert', display_name: 'Toy Inverter', description: 'Negatives of your images', base_cost: 3, discount_percentage: 0, effective_cost: 3 }] };
  }
  if (path === `/api/library/${ITEM}`) {
    return { status: 200, body: { id: ITEM, kind: 'image', url: '/media/cat.png', thumbnail_url: '/media/cat-thumb.png', original_name: 'cat.png', width: 40, height: 30 } };
  }
  if (path === '/functions/v1/toy-invert' && method === 'POST') return { status: 202, body: { job_id: JOB, status: 'queued' } };
  if (path === `/api/jobs/${JOB}`) {
    // Polls keep saying 'running': only the job's event ends the run here.
    return { status: 200, body: { id: JOB, tool: 'toy-invert', status: 'running', progress_stage: 'Inverting', progress_fraction: 0.5 } };
  }
  if (path === '/api/batches/estimate') {
    return { status: 200, body: { tool: 'toy-invert', item_count: 1, unit_cost: 3, total_cost: 3, balance: 50, affordable_count: 1, estimate_seconds: null } };
  }
  if (path === `/api/jobs/${JOB}/result`) return job.ended ? { status: 200, body: toyAnswer } : { status: 202, body: { job_id: JOB, status: 'running' } };
  return { status: 404, body: { error: 'not here' } };
}

/** The page's event stream (GET /api/events), which the test speaks for. */
class StandInEvents extends EventTarget {
  static CLOSED = 2;
  static open: StandInEvents[] = [];
  readyState = 1;
  constructor(readonly url: string) {
    super();
    StandInEvents.open.push(this);
  }
  close() {
    this.readyState = 2;
    StandInEvents.open = StandInEvents.open.filter((s) => s !== this);
  }
  /** Sends an event to the page as the server's stream would. */
  static send(name: string, data: unknown) {
    for (const s of StandInEvents.open) s.dispatchEvent(new MessageEvent(name, { data: JSON.stringify(data) }));
  }
}

beforeAll(() => {
  addWebTool(toyCard);
  // The result panel scrolls itself into view; jsdom has no layout.
  Element.prototype.scrollIntoView ??= () => {};
  // Radix measures its slider thumb; jsdom has no layout.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

beforeEach(() => {
  sent.length = 0;
  job.ended = false;
  sessionStorage.clear();
  vi.stubGlobal('EventSource', StandInEvents);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'));
      const url = new URL(request.url);
      const call = { path: url.pathname, method: request.method, headers: request.headers, body: await request.text() };
      sent.push(call);
      const r = answer(call);
      return new Response(r.body === undefined ? '' : JSON.stringify(r.body), { status: r.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
});

function Providers({ children, path = '/dashboard' }: { children: ReactNode; path?: string | { pathname: string; state: unknown } }) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
    </QueryClientProvider>
  );
}

describe('a tool added to the web registry', () => {
  it('has a dashboard card with its name, description and price, which opens its view at its own address', async () => {
    const onOpen = vi.fn();
    render(
      <Providers>
        <ToolSections user={user} onOpen={onOpen} />
      </Providers>,
    );
    const card = await screen.findByRole('button', { name: 'Toy Inverter' });
    expect(card.getAttribute('data-card')).toBe('toy-invert');
    await waitFor(() => expect(card.textContent).toContain('3 ENERGY'));
    expect(card.textContent).toContain('Negatives of your images');
    fireEvent.click(card);
    // Its view id is its endpoint, which the registry vouches for.
    const id = toolViewId(toyCard);
    expect(id).toBe('toy-invert');
    expect(onOpen).toHaveBeenCalledWith(id);
    expect(viewPath(id)).toBe('/dashboard/toy');
    expect(parseViewPath('/dashboard/toy')).toEqual({ view: id });
    expect(viewDefinition(id)?.title).toBe('Toy Inverter');
  });

  it('draws its declared form, runs through the run hook with the body its fields make, and shows its result', async () => {
    const View = viewDefinition(toolViewId(toyCard))!.Component;
    render(
      <Providers path={`/dashboard/toy?source=${ITEM}`}>
        <Suspense fallback={null}>
          <View onBack={() => {}} openView={() => {}} />
        </Suspense>
      </Providers>,
    );
    expect(await screen.findByRole('heading', { name: 'Toy Inverter' }, { timeout: 20_000 })).toBeTruthy();
    expect(screen.getByText('Turn your image into its negative.')).toBeTruthy();
    const thumb = screen.getByRole('slider', { name: 'Strength' });
    expect(thumb.getAttribute('aria-valuetext')).toBe('1');
    expect(screen.getByText('How far each colour moves to its opposite.')).toBeTruthy();
    const run = screen.getByTestId('run-button');
    expect(run.textContent).toContain('Invert');
    // The picture handed over in the address is picked; then the run may start.
    await waitFor(() => expect((run as HTMLButtonElement).disabled).toBe(false));
    fireEvent.keyDown(thumb, { key: 'ArrowLeft' });
    expect(thumb.getAttribute('aria-valuetext')).toBe('0.9');
    fireEvent.click(run);

    // The call: the toy's path, the body its fields make, a fresh key, the job id at once.
    await waitFor(() => expect(sent.some((c) => c.path === '/functions/v1/toy-invert')).toBe(true));
    const post = sent.find((c) => c.path === '/functions/v1/toy-invert')!;
    expect(post.method).toBe('POST');
    expect(JSON.parse(post.body)).toEqual({ image_url: ITEM, strength: 0.9 });
    expect(post.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(post.headers.get('Prefer')).toBe('respond-async');
    await waitFor(() => expect(sent.some((c) => c.path === `/api/jobs/${JOB}`)).toBe(true));
    expect(screen.queryByTestId('tool-result')).toBeNull();

    // The job's end comes as its event; the hook fetches the answer and reads it with the toy's schema.
    job.ended = true;
    StandInEvents.send('job', { id: JOB, tool: 'toy-invert', status: 'succeeded', progress_stage: 'Done', progress_fraction: 1 });
    const result = await screen.findByTestId('tool-result', {}, { timeout: 5_000 });
    expect(within(result).getByRole('heading', { name: 'Your image is ready' })).toBeTruthy();
    expect(within(result).getByAltText('After').getAttribute('src')).toBe(INVERTED);
    expect(within(result).getByAltText('Before').getAttribute('src')).toBe('/media/cat.png');
    expect(within(result).getByRole('button', { name: 'New Inversion' })).toBeTruthy();
    const details = within(result).getByTestId('result-details').textContent;
    expect(details).toContain('Modeltoy-negate');
    expect(details).toContain('ENERGY used3');
    expect(details).toContain('Strength0.9');
    // The answer came through the job's result once the event said so.
    expect(sent.filter((c) => c.path === `/api/jobs/${JOB}/result`)).toHaveLength(1);
  });

  it('is offered by batches (its info says so) with its declared batch fields, and a batch names it with the settings they make', async () => {
    const chosen = [{ id: ITEM, name: 'cat.png', thumbnailUrl: null }];
    render(
      <Providers path={{ pathname: '/dashboard/batch', state: { batchImages: chosen } }}>
        <NewBatch openView={() => {}} />
      </Providers>,
    );
    fireEvent.click(await screen.findByRole('radio', { name: /Toy Inverter/ }));
    const thumb = await screen.findByRole('slider', { name: 'Strength' });
    fireEvent.keyDown(thumb, { key: 'ArrowLeft' });
    const estimated = () => sent.filter((c) => c.path === '/api/batches/estimate').map((c) => JSON.parse(c.body));
    await waitFor(() => expect(estimated()).toContainEqual({ tool: 'toy-invert', settings: { strength: 0.9 }, items: [ITEM] }));
    await waitFor(() => expect(screen.getByTestId('batch-total').textContent).toContain('3 ENERGY'));
    expect((screen.getByTestId('batch-run') as HTMLButtonElement).disabled).toBe(false);
  });
});
