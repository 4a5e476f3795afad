import { describe, expect, it, vi } from 'vitest';
import { lazyModule } from './lazyModule';

describe('lazyModule', () => {
  it('imports once, shares the load and tells its listeners', async () => {
    const importer = vi.fn(async () => ({ answer: 42 }));
    const mod = lazyModule(importer);
    const heard = vi.fn();
    mod.subscribe(heard);
    expect(mod.current()).toBeNull();
    expect(importer).not.toHaveBeenCalled();
    const [a, b] = await Promise.all([mod.load(), mod.load()]);
    expect(a).toBe(b);
    expect(mod.current()).toBe(a);
    expect(importer).toHaveBeenCalledTimes(1);
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('tries again after a failed load', async () => {
    const importer = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce({ ok: true });
    const mod = lazyModule(importer);
    await expect(mod.load()).rejects.toThrow('offline');
    expect(mod.current()).toBeNull();
    await expect(mod.load()).resolves.toEqual({ ok: true });
    expect(importer).toHaveBeenCalledTimes(2);
  });
});
