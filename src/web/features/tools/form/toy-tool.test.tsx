// @vitest-environment jsdom
import { Suspense, type ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { toyWebTool } from '../../../../../test/helpers/toy-tool/web';
import type { AuthUser } from '../../../app/auth';
import { ToolSections } from '../../dashboard/ToolSections';
import { parseViewPath, viewPath } from '../../dashboard/view-ids';
import { viewDefinition } from '../../dashboard/views';
import { addWebTool } from './registry';

/**
 * A sixth tool's web half is its folder plus one registry line: added here, the dashboard shows its
 * card, its address opens its view, and the one form-driven view draws its declared form and hands
 * its run the body the form declares.
 */
const user: AuthUser = { id: 'u1', email: 'a@b.test', fullName: 'Ada', energyBalance: 50, totalEnergyPurchased: 0, energyOwed: 0, isVip: false, isAdmin: false };
vi.mock('../../../app/auth', () => ({ useAuth: () => ({ rolesLoaded: true, user }), useUser: () => user }));

// The bodies the form hands to its run (the run itself, its typed door and answers, is useToolRun's own test).
const submitted = vi.hoisted(() => [] as unknown[]);
vi.mock('../shared/useToolRun', async (importOriginal) => {
  const real = await importOriginal<typeof import('../shared/useToolRun')>();
  return { ...real, useToolRun: () => ({ ...real.initialState(), submit: (body: unknown) => submitted.push(body), cancel: async () => {}, reset: () => {} }) };
});

const ITEM = '7d3c2f9a-1b2c-4d5e-8f90-123456789abc';

function answer(url: string): { status: number; body?: unknown } {
  if (url.endsWith('/api/pricing')) {
    return { status: 200, body: [{ tool_name: 'toy-invert', display_name: 'Toy Inverter', description: 'Negatives of your images', base_cost: 3, discount_percentage: 0, effective_cost: 3 }] };
  }
  if (url.endsWith(`/api/library/${ITEM}`)) {
    return { status: 200, body: { id: ITEM, kind: 'image', url: '/media/cat.png', thumbnail_url: '/media/cat-thumb.png', original_name: 'cat.png', width: 40, height: 30 } };
  }
  return { status: 404, body: { error: 'not here' } };
}

beforeAll(() => {
  addWebTool(toyWebTool);
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
  submitted.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const r = answer(input instanceof Request ? input.url : String(input));
      return new Response(r.body === undefined ? '' : JSON.stringify(r.body), { status: r.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
});

function Providers({ children, path = '/dashboard' }: { children: ReactNode; path?: string }) {
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
    expect(onOpen).toHaveBeenCalledWith('toy-invert');
    expect(viewPath('toy-invert')).toBe('/dashboard/toy');
    expect(parseViewPath('/dashboard/toy')).toEqual({ view: 'toy-invert' });
    expect(viewDefinition('toy-invert')?.title).toBe('Toy Inverter');
  });

  it('draws its declared form and sends the body its fields make', async () => {
    const View = viewDefinition('toy-invert')!.Component;
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
    expect(submitted).toEqual([{ image_url: ITEM, strength: 0.9 }]);
  });
});
