import type { Db, Queryable, Tx } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import { suspensionMessages } from '../../../shared/account.messages.js';
import { authMessages } from '../../../shared/auth.messages.js';
import { registrationMessages } from '../../../shared/registration.messages.js';
import { SESSION_SEEN_INTERVAL_SECONDS, SESSION_TTL_DAYS, type Role } from '../../../shared/constants.js';
import type { AuthResponse, SignInBody, SignUpBody } from '../../../shared/auth.schema.js';
import { normalizeEmail, normalizeInviteCode, registrationError } from '../../../shared/registration.js';
import * as repo from './auth.repo.js';
import { hashPassword, timingDummyHash, verifyPassword } from './password.js';
import { newSessionToken, sessionIdOf } from './session-token.js';
import { assertAllowed, Limiter, rateLimited, type Verdict } from '../limits/limiter.js';
import { accountWideKey, DEFAULT_AUTH_LIMITS, signInRules, signUpRules, type AuthLimits } from './auth-throttle.js';
import { AccountWalls } from './account-walls.js';
import { isApiKeyToken } from '../api-keys/api-key-token.js';

export interface AuthenticatedUser {
  id: string;
  email: string;
  fullName: string;
  role: Role;
  sessionId: string;
  /** Whether the person clicked the confirmation link (only enforced with EMAIL_VERIFICATION=on). */
  emailVerified: boolean;
  /** Set when the call was authenticated by a personal API key instead of a session. */
  apiKey?: { id: string; name: string };
}

/** Turns a personal API key into its owner (the api-keys feature). */
export interface KeyAuthenticator {
  authenticate(token: string): Promise<AuthenticatedUser | null>;
}

/**
 * What account creation asks of the invite system (referrals feature). Runs
 * inside the account-creating transaction so a code is consumed atomically
 * with the account.
 */
export interface InviteGate {
  isReferralOnly(db: Queryable): Promise<boolean>;
  /** Consume the code for newUserId; false when the code is not valid. */
  redeem(tx: Queryable, code: string, newUserId: string): Promise<boolean>;
}

/** The welcome grant at sign-up (energy feature), in the account-creating transaction. */
export interface WelcomeAtSignUp {
  atSignUp(tx: Tx, userId: string, email: string): Promise<number>;
}

export const openRegistration: InviteGate = {
  isReferralOnly: async () => false,
  redeem: async () => false,
};

export interface RequestMeta {
  ip: string;
  userAgent?: string;
}

const DAY_MS = 86_400_000;
/** An account with more known addresses than this gets no wall: its list would cost more memory than the wall saves. */
const MAX_WALL_ADDRESSES = 1000;

export class AuthService {
  private readonly walls = new AccountWalls();

  constructor(
    private readonly db: Db,
    private readonly adminEmails: string[],
    private readonly inviteGate: InviteGate = openRegistration,
    private readonly log: { warn: (obj: unknown, msg?: string) => void } = console,
    private readonly limiter: Limiter = new Limiter(db),
    private readonly limits: AuthLimits = DEFAULT_AUTH_LIMITS,
    private readonly keys?: KeyAuthenticator,
    private readonly welcome?: WelcomeAtSignUp,
  ) {}

  async signUp(body: SignUpBody, meta: RequestMeta): Promise<AuthResponse> {
    const email = normalizeEmail(body.email ?? '');
    assertAllowed(await this.limiter.take(signUpRules(this.limits, meta.ip)), authMessages.tooManyAttempts);

    const referralOnly = await this.inviteGate.isReferralOnly(this.db);
    const inviteCode = normalizeInviteCode(body.inviteCode);
    const invalid = registrationError({
      name: body.name ?? '',
      email: body.email ?? '',
      password: body.password ?? '',
      confirmPassword: body.confirmPassword,
      acceptTerms: body.acceptTerms,
      confirmAge: body.confirmAge,
      inviteCode,
      referralOnly,
    });
    if (invalid) throw new AppError('validation', invalid);

    const passwordHash = await hashPassword(body.password!);
    const role: Role = this.adminEmails.includes(email) ? 'admin' : 'user';
    const user = await this.db
      .transaction(async (tx) => {
        const existing = await repo.findUserByEmail(tx, email);
        if (existing) throw new AppError('conflict', registrationMessages.emailTaken);
        const created = await repo.insertUser(tx, { email, fullName: body.name!.trim(), passwordHash, role });
        await repo.insertProfile(tx, created.id);
        if (referralOnly && !(await this.inviteGate.redeem(tx, inviteCode, created.id))) {
          throw new AppError('validation', registrationMessages.inviteInvalid);
        }
        await this.welcome?.atSignUp(tx, created.id, email);
        return created;
      })
      .catch((err) => {
        if ((err as { code?: string }).code === '23505') throw new AppError('conflict', registrationMessages.emailTaken);
        throw err;
      });

    // Open registration: an optional code only records the referral. The
    // account exists either way; a failure here is logged, never fatal (requirements §8).
    if (!referralOnly && inviteCode) {
      try {
        const ok = await this.db.transaction((tx) => this.inviteGate.redeem(tx, inviteCode, user.id));
        if (!ok) this.log.warn({ userId: user.id }, 'invite code not applied after signup');
      } catch (err) {
        this.log.warn({ err, userId: user.id }, 'invite processing failed after signup');
      }
    }
    return this.startSession(user, meta);
  }

  async signIn(body: SignInBody, meta: RequestMeta): Promise<AuthResponse> {
    const email = normalizeEmail(body.email ?? '');
    const walled = this.walls.refusal(email, meta.ip);
    if (walled !== null) throw rateLimited(authMessages.tooManyAttempts, walled);
    const user = email ? await repo.findUserByEmail(this.db, email) : undefined;
    const known = !!user && (await repo.isKnownAddress(this.db, user.id, meta.ip));
    // The attempt is counted before the password is checked, in one locked
    // step: parallel guesses cannot all slip past a count read earlier.
    const verdict = await this.limiter.take(signInRules(this.limits, email, meta.ip, known));
    await this.raiseWall(email, user, verdict);
    assertAllowed(verdict, authMessages.tooManyAttempts);
    // Verify against a dummy hash for unknown e-mails: same answer, same time.
    const ok = await verifyPassword(user?.password_hash ?? (await timingDummyHash()), body.password ?? '');
    if (!user || !ok) throw new AppError('unauthenticated', authMessages.invalidCredentials);
    // Said only to whoever knows the password: the address alone tells a stranger nothing.
    if (user.suspended_at) throw new AppError('account_suspended', suspensionMessages.signIn);
    return this.startSession(user, meta);
  }

  /** After the database refused the account-wide rule: later guesses from strangers are refused from memory. */
  private async raiseWall(email: string, user: repo.UserRow | undefined, verdict: Verdict): Promise<void> {
    if (verdict.ok || verdict.rule.key !== accountWideKey(email) || this.walls.stands(email)) return;
    const known = user ? await repo.knownAddresses(this.db, user.id, MAX_WALL_ADDRESSES + 1) : [];
    if (known.length <= MAX_WALL_ADDRESSES) this.walls.raise(email, verdict.retryAfterSeconds, known);
  }

  async signOut(token: string): Promise<void> {
    await repo.deleteSession(this.db, sessionIdOf(token));
  }

  /** The user behind a bearer token, or null when missing, unknown or expired. */
  async authenticate(token: string | undefined): Promise<AuthenticatedUser | null> {
    if (!token) return null;
    if (isApiKeyToken(token)) return this.keys ? this.keys.authenticate(token) : null;
    const row = await repo.findSessionUser(this.db, sessionIdOf(token));
    if (!row) return null;
    const now = Date.now();
    const expires = new Date(row.expires_at).getTime();
    if (expires <= now) {
      await repo.deleteSession(this.db, row.session_id);
      return null;
    }
    // Sliding expiry: extend once less than half the lifetime is left.
    // Sliding expiry (extend once less than half the lifetime is left) and
    // "last seen" for the sessions list, written every few minutes, not per request.
    const extend = expires - now < (SESSION_TTL_DAYS * DAY_MS) / 2;
    const seen = now - new Date(row.last_seen_at).getTime() > SESSION_SEEN_INTERVAL_SECONDS * 1000;
    if (extend || seen) {
      await repo.touchSession(this.db, row.session_id, extend ? new Date(now + SESSION_TTL_DAYS * DAY_MS) : null);
    }
    return {
      id: row.id,
      email: row.email,
      fullName: row.full_name,
      role: row.role,
      sessionId: row.session_id,
      emailVerified: row.email_verified_at !== null,
    };
  }

  /** ADMIN_EMAILS applies at start as well as at sign-up. */
  async applyAdminEmails(): Promise<number> {
    return repo.setRoleByEmails(this.db, this.adminEmails, 'admin');
  }

  async housekeeping(): Promise<void> {
    await repo.deleteExpiredSessions(this.db);
    await this.limiter.housekeeping();
  }

  private async startSession(user: repo.UserRow, meta: RequestMeta): Promise<AuthResponse> {
    const { token, id } = newSessionToken();
    await repo.insertSession(this.db, {
      id,
      userId: user.id,
      expiresAt: new Date(Date.now() + SESSION_TTL_DAYS * DAY_MS),
      userAgent: meta.userAgent?.slice(0, 300),
      ip: meta.ip,
    });
    await repo.rememberAddress(this.db, user.id, meta.ip);
    this.walls.admit(user.email, meta.ip);
    return { token, user: { id: user.id, email: user.email, name: user.full_name } };
  }
}
