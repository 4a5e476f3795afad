import type { Db, Queryable } from '../../db/db.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../../shared/messages.js';
import {
  AUTH_FAILURE_LIMIT,
  AUTH_FAILURE_WINDOW_SECONDS,
  SESSION_TTL_DAYS,
  type Role,
} from '../../../shared/constants.js';
import {
  normalizeEmail,
  normalizeInviteCode,
  registrationError,
  type AuthResponse,
  type SignInBody,
  type SignUpBody,
} from '../../../shared/auth.schema.js';
import * as repo from './auth.repo.js';
import { hashPassword, timingDummyHash, verifyPassword } from './password.js';
import { newSessionToken, sessionIdOf } from './session-token.js';

export interface AuthenticatedUser {
  id: string;
  email: string;
  fullName: string;
  role: Role;
  sessionId: string;
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

export const openRegistration: InviteGate = {
  isReferralOnly: async () => false,
  redeem: async () => false,
};

export interface RequestMeta {
  ip: string;
  userAgent?: string;
}

const DAY_MS = 86_400_000;

export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly adminEmails: string[],
    private readonly inviteGate: InviteGate = openRegistration,
    private readonly log: { warn: (obj: unknown, msg?: string) => void } = console,
  ) {}

  async signUp(body: SignUpBody, meta: RequestMeta): Promise<AuthResponse> {
    const email = normalizeEmail(body.email ?? '');
    const keys = [`ip:${meta.ip}`, `account:${email}`];
    await this.assertNotThrottled(keys);

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
    if (invalid) return this.refuse(keys, 'validation', invalid);

    const passwordHash = await hashPassword(body.password!);
    const role: Role = this.adminEmails.includes(email) ? 'admin' : 'user';
    const user = await this.db
      .transaction(async (tx) => {
        const existing = await repo.findUserByEmail(tx, email);
        if (existing) throw new AppError('conflict', messages.emailTaken);
        const created = await repo.insertUser(tx, { email, fullName: body.name!.trim(), passwordHash, role });
        await tx.query('INSERT INTO user_profiles (id) VALUES ($1)', [created.id]);
        if (referralOnly && !(await this.inviteGate.redeem(tx, inviteCode, created.id))) {
          throw new AppError('validation', messages.inviteInvalid);
        }
        return created;
      })
      .catch(async (err) => {
        if (err instanceof AppError) return this.refuse(keys, err.code, err.message);
        if ((err as { code?: string }).code === '23505') return this.refuse(keys, 'conflict', messages.emailTaken);
        throw err;
      });

    // Open registration: an optional code only records the referral. The
    // account exists either way; a failure here is logged, never fatal (SPEC §8).
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
    const keys = [`ip:${meta.ip}`, `account:${email}`];
    await this.assertNotThrottled(keys);
    const user = email ? await repo.findUserByEmail(this.db, email) : undefined;
    // Verify against a dummy hash for unknown e-mails: same answer, same time.
    const ok = await verifyPassword(user?.password_hash ?? (await timingDummyHash()), body.password ?? '');
    if (!user || !ok) return this.refuse(keys, 'unauthenticated', messages.invalidCredentials);
    return this.startSession(user, meta);
  }

  async signOut(token: string): Promise<void> {
    await repo.deleteSession(this.db, sessionIdOf(token));
  }

  /** The user behind a bearer token, or null when missing, unknown or expired. */
  async authenticate(token: string | undefined): Promise<AuthenticatedUser | null> {
    if (!token) return null;
    const row = await repo.findSessionUser(this.db, sessionIdOf(token));
    if (!row) return null;
    const now = Date.now();
    const expires = new Date(row.expires_at).getTime();
    if (expires <= now) {
      await repo.deleteSession(this.db, row.session_id);
      return null;
    }
    // Sliding expiry: extend once less than half the lifetime is left.
    if (expires - now < (SESSION_TTL_DAYS * DAY_MS) / 2) {
      await repo.extendSession(this.db, row.session_id, new Date(now + SESSION_TTL_DAYS * DAY_MS));
    }
    return { id: row.id, email: row.email, fullName: row.full_name, role: row.role, sessionId: row.session_id };
  }

  /** ADMIN_EMAILS applies at start as well as at sign-up. */
  async applyAdminEmails(): Promise<number> {
    return repo.setRoleByEmails(this.db, this.adminEmails, 'admin');
  }

  async housekeeping(): Promise<void> {
    await repo.deleteExpiredSessions(this.db);
    await repo.pruneFailures(this.db, AUTH_FAILURE_WINDOW_SECONDS);
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
    return { token, user: { id: user.id, email: user.email, name: user.full_name } };
  }

  private async assertNotThrottled(keys: string[]): Promise<void> {
    const failures = await repo.countRecentFailures(this.db, keys, AUTH_FAILURE_WINDOW_SECONDS);
    if (failures >= AUTH_FAILURE_LIMIT) throw new AppError('rate_limited', messages.tooManyAttempts);
  }

  private async refuse(keys: string[], code: AppError['code'], message: string): Promise<never> {
    await repo.recordFailures(this.db, keys);
    throw new AppError(code, message);
  }
}
