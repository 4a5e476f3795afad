// @vitest-environment jsdom
import type { FormEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { ApiError } from './api';
import { useFormSubmit } from './useFormSubmit';

const event = () => ({ preventDefault: vi.fn() }) as unknown as FormEvent;

describe('useFormSubmit', () => {
  it('shows the check refusal without sending', async () => {
    const send = vi.fn(async () => {});
    const { result } = renderHook(() => useFormSubmit(() => 'Password is required', send));
    const e = event();
    await act(() => result.current.submit(e));
    expect(e.preventDefault).toHaveBeenCalled();
    expect(send).not.toHaveBeenCalled();
    expect(result.current.error).toBe('Password is required');
  });

  it('is busy while sending, then clears the earlier refusal', async () => {
    let finish = () => {};
    let refusal: string | null = 'Passwords do not match';
    const { result } = renderHook(() => useFormSubmit(() => refusal, () => new Promise<void>((resolve) => (finish = resolve))));
    await act(() => result.current.submit(event()));
    expect(result.current.error).toBe('Passwords do not match');

    refusal = null;
    let sent!: Promise<void>;
    act(() => {
      sent = result.current.submit(event());
    });
    expect(result.current.busy).toBe(true);
    expect(result.current.error).toBeNull();
    await act(async () => {
      finish();
      await sent;
    });
    expect(result.current.busy).toBe(false);
    expect(result.current.error).toBeNull();
  });

  it("shows the server's words when sending fails", async () => {
    const { result } = renderHook(() =>
      useFormSubmit(
        () => null,
        async () => {
          throw new ApiError('Current password is incorrect', 400, 'invalid_password', true);
        },
      ),
    );
    await act(() => result.current.submit(event()));
    expect(result.current.busy).toBe(false);
    expect(result.current.error).toBe('Current password is incorrect');
  });
});
