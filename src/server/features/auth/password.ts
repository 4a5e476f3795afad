import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id (a const enum, not importable under isolatedModules).
const ARGON2ID = 2;

/**
 * argon2id at the OWASP Password Storage Cheat Sheet's first recommended
 * setting: 19 MiB memory, 2 iterations, 1 lane.
 */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A real hash of a random password, verified against when the e-mail is
 * unknown so that both failures take the same time.
 */
let dummyHash: Promise<string> | undefined;
export function timingDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  return dummyHash;
}
