import { BlockedUntil } from '../limits/blocked-until.js';

const MAX_WALLS = 10_000;

/**
 * Accounts whose account-wide sign-in limit the database refused in this
 * process, each with the addresses it had signed in from at that moment.
 * While the wall stands, a guess from any other address is refused before
 * the user is even looked up (a thousand guesses from a thousand addresses
 * cost no database work); the owner's own addresses go the usual way.
 *
 * Sound because an address only becomes known by a session started from
 * it, and from an unknown address that takes the account-wide limit, which
 * stays full in the database while the wall stands (decision 024).
 */
export class AccountWalls {
  private readonly walls = new BlockedUntil();
  private readonly exempt = new Map<string, Set<string>>();

  /** Seconds to wait when this guess is refused from memory; null sends it the usual way. */
  refusal(email: string, ip: string): number | null {
    const seconds = this.walls.secondsLeft(email);
    const known = this.exempt.get(email);
    if (seconds === null || !known) {
      this.exempt.delete(email);
      return null;
    }
    return known.has(ip) ? null : seconds;
  }

  stands(email: string): boolean {
    return this.walls.secondsLeft(email) !== null;
  }

  raise(email: string, retryAfterSeconds: number, knownAddresses: string[]): void {
    if (this.exempt.size >= MAX_WALLS) this.exempt.clear();
    this.walls.block(email, retryAfterSeconds);
    // A wall without its list of known addresses is never used: it could refuse the owner.
    if (this.walls.secondsLeft(email) !== null) this.exempt.set(email, new Set(knownAddresses));
  }

  /** A session just started from ip (a sign-in checked before the wall rose): the address is the owner's now. */
  admit(email: string, ip: string): void {
    this.exempt.get(email)?.add(ip);
  }
}
