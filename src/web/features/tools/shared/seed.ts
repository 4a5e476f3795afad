/** The seed field's own message (same rule as the server: a whole number, empty = random). */
export function seedError(seed: string): string | null {
  const s = seed.trim();
  if (!s) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) && n >= 0 && /^\d+$/.test(s) ? null : 'Seed must be a whole number';
}

/** The body value: a number, or undefined (not sent) when empty. */
export function seedValue(seed: string): number | undefined {
  const s = seed.trim();
  return s && !seedError(s) ? Number(s) : undefined;
}
