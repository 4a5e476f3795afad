import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadServerEventSchemas, parseServerEvent } from './events';

// The schemas load with the first event in the app (they carry zod); here, before the checks.
beforeAll(() => loadServerEventSchemas());
afterEach(() => vi.restoreAllMocks());

describe('parseServerEvent', () => {
  it('types a job event as the server sends it', () => {
    const ev = parseServerEvent('job', {
      id: 'j1',
      tool: 'fal-upscaler',
      status: 'running',
      progress_stage: 'Upscaling',
      progress_fraction: 0.5,
      batch_id: 'b1',
    });
    expect(ev).toMatchObject({ id: 'j1', status: 'running', progress_fraction: 0.5, batch_id: 'b1' });
  });

  it('drops a job event that is not one (no cast lets it through)', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(parseServerEvent('job', { id: 'j1', status: 'exploded', progress_fraction: 'half' })).toBeNull();
    expect(parseServerEvent('job', null)).toBeNull();
  });

  it('accepts events that carry no data', () => {
    expect(parseServerEvent('account_suspended', null)).toEqual({});
    expect(parseServerEvent('pricing', { changed: ['tools'] })).toEqual({ changed: ['tools'] });
  });
});
