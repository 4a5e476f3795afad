/**
 * Values no earlier try has used. Vitest retries a test in the same app and
 * database (TEST_RETRIES), so a race test that signs up a fixed address or
 * counts against a fixed client address would fail its second try on what
 * the first left behind; with these, a retry is a real second try.
 */
let tags = 0;
let nets = 0;

/** A short unique token for e-mails, keys and codes: `victim-${freshTag()}@example.com`. */
export const freshTag = (): string => `${Date.now().toString(36)}${(tags += 1)}`;

/** A /24 of client addresses ('10.9' gives '10.9.7'); throttles count per address, so a retry starts from zero. */
export const freshNet = (prefix: string): string => `${prefix}.${(nets = (nets % 254) + 1)}`;
