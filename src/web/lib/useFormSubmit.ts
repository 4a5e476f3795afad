import { useState, type FormEvent } from 'react';
import { errorMessage } from './api';

/**
 * A form sent to the server: `check` refuses it without asking (its message is the refusal),
 * `send` sends it. `busy` while it is on its way; `error` is what the check or the server said.
 */
export function useFormSubmit(check: () => string | null | undefined, send: () => Promise<unknown>) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const refusal = check();
    if (refusal) return setError(refusal);
    setBusy(true);
    try {
      await send();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return { submit, error, setError, busy };
}
