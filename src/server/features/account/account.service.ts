import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import Bowser from 'bowser';
import type { Db, Tx } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import type { StorageDriver } from '../../providers/storage/storage.js';
import { normalizeEmail } from '../../../shared/registration.js';
import {
  DELETE_CONFIRMATION_WORD,
  PASSWORD_CHECKS_PER_MINUTE,
  EXPORT_LINK_HOURS,
  RESET_ATTEMPTS_PER_ACCOUNT_PER_MINUTE,
  RESET_ATTEMPTS_PER_IP_PER_HOUR,
  RESET_ATTEMPTS_PER_IP_PER_MINUTE,
  RESET_LINK_MINUTES,
  RESET_REQUESTS_PER_ADDRESS,
  RESET_REQUESTS_PER_IP,
  RESET_THROTTLE_WINDOW_SECONDS,
  VERIFY_LINK_HOURS,
} from '../../../shared/constants.js';
import { accessMessages } from '../../../shared/access.messages.js';
import { accountMessages as msg } from '../../../shared/account.messages.js';
import { authMessages } from '../../../shared/auth.messages.js';
import type { AccountSession, ExportStatus, SessionsEnded } from '../../../shared/account.schema.js';
import { newPasswordError } from '../../../shared/account.schema.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { assertAllowed, rateLimited, type Limiter } from '../limits/limiter.js';
import { PreLimiter } from '../limits/pre-limiter.js';
import type { MailService } from '../mail/mail.service.js';
import * as repo from './account.repo.js';
import { countOtherActiveAdmins, lockAdmins } from '../admin/admin.repo.js';
import { exportArchive } from './export-archive.js';

const MB = 1024 * 1024;

interface Log {
  warn: (obj: unknown, msg?: string) => void;
  info: (obj: unknown, msg?: string) => void;
}

/** What the account service needs of tool runs: stop what is still running before an account goes. */
export interface OpenJobCanceller {
  cancel(userId: string, jobId: string): Promise<unknown>;
}

/** What it needs of the job queue: large exports are built in the background. */
export interface ExportQueuePort {
  /** Built with the services, it sends only once started; until then exports are built inline. */
  readonly running: boolean;
  sendAccountExport(message: { exportId: string; userId: string }): Promise<void>;
}

export interface AccountServiceOptions {
  publicUrl: string;
  emailVerification: boolean;
  exportInlineMaxBytes: number;
  /** The welcome grant, given when the address is confirmed (with e-mail confirmation on). */
  welcome?: { atConfirmed(tx: Tx, userId: string, email: string): Promise<number> };
}

/** Reset mails being prepared at once, and waiting: past the cap a reset request is refused (for every address alike). */
const RESET_MAIL_CONCURRENCY = 2;
const RESET_MAIL_BACKLOG = 50;
/**
 * Reset-link checks at the database at once per process, and waiting for it. A check is a few
 * milliseconds; honest resets are rare, so one at a time costs them nothing, and a flood of fresh
 * addresses never has more than one transaction ahead of everyone else's queries.
 */
export const RESET_CHECKS_AT_ONCE = 1;
export const RESET_CHECKS_WAITING = 32;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function newToken(): { token: string; id: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, id: hashToken(token) };
}

/** "Firefox on Windows", "Safari on iPhone", or the raw agent when it says nothing useful. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const ua = Bowser.parse(userAgent);
  const browser = ua.browser.name;
  const os = ua.platform.model && ua.platform.type !== 'desktop' ? ua.platform.model : ua.os.name;
  if (browser && os) return `${browser} on ${os}`;
  return browser || os || userAgent.slice(0, 60);
}

/**
 * The person's own account: password reset and change, sessions, e-mail
 * confirmation, 'Download my data' and deletion. Balances are never touched
 * here: deletion leaves the profile and ledger rows as they are (see
 * decision record 014).
 */
export class AccountService {
  private readonly background = new Set<Promise<void>>();
  /** Reset mails not yet started; at most RESET_MAIL_BACKLOG. */
  private readonly mailLine: Array<() => Promise<void>> = [];
  /** Reset-link checks: refused from memory when flooded, before the database is asked anything. */
  private readonly resetGate = new PreLimiter({ perKey: RESET_ATTEMPTS_PER_IP_PER_MINUTE, windowSeconds: 60, inFlight: RESET_CHECKS_AT_ONCE, waiting: RESET_CHECKS_WAITING });

  constructor(
    private readonly db: Db,
    private readonly mail: MailService,
    private readonly storage: StorageDriver,
    private readonly limiter: Limiter,
    private readonly exportQueue: ExportQueuePort,
    private readonly jobs: OpenJobCanceller,
    private readonly opts: AccountServiceOptions,
    private readonly log: Log,
  ) {}

  get verificationRequired(): boolean {
    return this.opts.emailVerification;
  }

  // ---- password reset -------------------------------------------------

  /**
   * Sends a reset link when the address has an account. The caller learns
   * nothing either way: same answer, the throttle counts every request, and
   * the answer leaves before the account is even looked up (the lookup, the
   * link and the mail happen in the background), so a known address takes
   * no longer to answer than an unknown one.
   */
  async requestPasswordReset(rawEmail: string, ip: string): Promise<{ message: string }> {
    const email = normalizeEmail(rawEmail ?? '');
    // A full backlog refuses every address alike, before the throttle's database write.
    if (this.mailLine.length >= RESET_MAIL_BACKLOG) throw rateLimited(msg.resetThrottled, 60);
    const verdict = await this.limiter.take([
      { key: `reset:ip:${ip}`, limit: RESET_REQUESTS_PER_IP, windowSeconds: RESET_THROTTLE_WINDOW_SECONDS },
      { key: `reset:account:${email}`, limit: RESET_REQUESTS_PER_ADDRESS, windowSeconds: RESET_THROTTLE_WINDOW_SECONDS },
    ]);
    assertAllowed(verdict, msg.resetThrottled);
    if (!email) throw new AppError('validation', authMessages.emailRequired);
    this.inBackground('password reset mail', () => this.mailResetLink(email));
    return { message: msg.resetRequested };
  }

  private async mailResetLink(email: string): Promise<void> {
    const user = await repo.findAccountByEmail(this.db, email);
    if (!user) return;
    const { token, id } = newToken();
    await this.db.transaction(async (tx) => {
      await repo.insertToken(tx, { id, userId: user.id, purpose: 'password_reset', expiresAt: new Date(Date.now() + RESET_LINK_MINUTES * 60_000) });
      await this.mail.send(
        user.email,
        { kind: 'password_reset', name: user.full_name, link: `${this.opts.publicUrl}/reset-password?token=${token}`, minutes: RESET_LINK_MINUTES },
        { userId: user.id, tx },
      );
    });
  }

  /** Queued behind at most RESET_MAIL_CONCURRENCY others: a flood of requests never becomes a flood of lookups. */
  private inBackground(what: string, work: () => Promise<void>): void {
    this.mailLine.push(() => work().catch((err: unknown) => this.log.warn({ err }, `${what} failed`)));
    this.drain();
  }

  private drain(): void {
    while (this.background.size < RESET_MAIL_CONCURRENCY && this.mailLine.length > 0) {
      const next = this.mailLine.shift()!;
      const running: Promise<void> = next().finally(() => {
        this.background.delete(running);
        this.drain();
      });
      this.background.add(running);
    }
  }

  /** Waits for the work answered before it was done (reset mails); the app waits for it before closing. */
  async settled(): Promise<void> {
    while (this.background.size || this.mailLine.length) await Promise.all([...this.background]);
  }

  /**
   * Sets the new password from a reset link; the link is spent, every
   * session ends and every API key is revoked. Counted like sign-in (per
   * address, then per account) and the link is looked up before the new
   * password is hashed: a flood of made-up links costs no hashing at all.
   */
  async resetPassword(token: string, password: string, confirmPassword: string | undefined, ip: string): Promise<{ message: string }> {
    const admitted = await this.resetGate.enter(ip);
    if (!admitted.ok) throw rateLimited(authMessages.tooManyAttempts, admitted.retryAfterSeconds);
    try {
      return await this.checkedReset(token, password, confirmPassword, ip);
    } finally {
      admitted.release();
    }
  }

  private async checkedReset(token: string, password: string, confirmPassword: string | undefined, ip: string): Promise<{ message: string }> {
    assertAllowed(
      await this.limiter.take([
        { key: `reset-password:ip:${ip}`, limit: RESET_ATTEMPTS_PER_IP_PER_MINUTE, windowSeconds: 60 },
        { key: `reset-password:ip:${ip}`, limit: RESET_ATTEMPTS_PER_IP_PER_HOUR, windowSeconds: 3600 },
      ]),
      authMessages.tooManyAttempts,
    );
    const invalid = newPasswordError(password, confirmPassword);
    if (invalid) throw new AppError('validation', invalid);
    const tokenId = hashToken(token ?? '');
    const live = await repo.findLiveToken(this.db, tokenId, 'password_reset');
    if (!live) throw new AppError('validation', msg.resetLinkInvalid);
    assertAllowed(
      await this.limiter.take([{ key: `reset-password:account:${live.user_id}`, limit: RESET_ATTEMPTS_PER_ACCOUNT_PER_MINUTE, windowSeconds: 60 }]),
      authMessages.tooManyAttempts,
    );
    const passwordHash = await hashPassword(password);
    const userId = await this.db.transaction(async (tx) => {
      const used = await repo.consumeToken(tx, tokenId, 'password_reset');
      if (!used) return null;
      await repo.setPassword(tx, used.user_id, passwordHash);
      await repo.retireTokens(tx, used.user_id, 'password_reset');
      // The link came through the inbox: that proves the address too.
      await repo.markVerified(tx, used.user_id);
      await repo.deleteSessionsExcept(tx, used.user_id, null);
      await repo.revokeApiKeys(tx, used.user_id);
      return used.user_id;
    });
    if (!userId) throw new AppError('validation', msg.resetLinkInvalid);
    return { message: msg.passwordReset };
  }

  // ---- password change -----------------------------------------------

  async changePassword(
    userId: string,
    currentSessionId: string,
    body: { currentPassword?: string; newPassword?: string; confirmPassword?: string },
  ): Promise<SessionsEnded> {
    const user = await this.mustFind(userId);
    await this.checkPassword(user, body.currentPassword ?? '', msg.currentPasswordWrong);
    const invalid = newPasswordError(body.newPassword ?? '', body.confirmPassword);
    if (invalid) throw new AppError('validation', invalid);
    const passwordHash = await hashPassword(body.newPassword!);
    const ended = await this.db.transaction(async (tx) => {
      await repo.setPassword(tx, userId, passwordHash);
      await repo.retireTokens(tx, userId, 'password_reset');
      const n = await repo.deleteSessionsExcept(tx, userId, currentSessionId);
      await repo.revokeApiKeys(tx, userId);
      await this.mail.send(user.email, { kind: 'password_changed', name: user.full_name }, { userId, tx });
      return n;
    });
    return { message: msg.passwordChanged, ended };
  }

  // ---- sessions ---------------------------------------------------------

  async listSessions(userId: string, currentSessionId: string): Promise<AccountSession[]> {
    const rows = await repo.listSessions(this.db, userId, currentSessionId);
    return rows.map((r) => ({
      id: r.id,
      device: describeDevice(r.user_agent),
      user_agent: r.user_agent,
      ip: r.ip,
      created_at: new Date(r.created_at).toISOString(),
      last_seen_at: new Date(r.last_seen_at).toISOString(),
      current: r.id === currentSessionId,
    }));
  }

  async endSession(userId: string, sessionId: string): Promise<void> {
    if (!(await repo.deleteSession(this.db, userId, sessionId))) throw new AppError('not_found', msg.sessionNotFound);
  }

  async endOtherSessions(userId: string, currentSessionId: string): Promise<SessionsEnded> {
    const ended = await repo.deleteSessionsExcept(this.db, userId, currentSessionId);
    return { ended, message: msg.otherSessionsEnded(ended) };
  }

  // ---- e-mail confirmation -------------------------------------------

  /** Mails a confirmation link (sign-up with EMAIL_VERIFICATION=on, or 'send again'). */
  async sendVerification(userId: string): Promise<void> {
    const user = await this.mustFind(userId);
    if (user.email_verified_at) return;
    const { token, id } = newToken();
    await this.db.transaction(async (tx) => {
      await repo.insertToken(tx, { id, userId, purpose: 'email_verification', expiresAt: new Date(Date.now() + VERIFY_LINK_HOURS * 3_600_000) });
      await this.mail.send(user.email, { kind: 'email_verification', name: user.full_name, link: `${this.opts.publicUrl}/verify-email?token=${token}` }, { userId, tx });
    });
  }

  async verifyEmail(token: string): Promise<{ message: string }> {
    const ok = await this.db.transaction(async (tx) => {
      const used = await repo.consumeToken(tx, hashToken(token ?? ''), 'email_verification');
      if (!used) return false;
      await repo.markVerified(tx, used.user_id);
      await repo.retireTokens(tx, used.user_id, 'email_verification');
      const account = await repo.findAccount(tx, used.user_id);
      if (account) await this.opts.welcome?.atConfirmed(tx, account.id, account.email);
      return true;
    });
    if (!ok) throw new AppError('validation', msg.verifyLinkInvalid);
    return { message: msg.emailVerified };
  }

  // ---- Download my data -----------------------------------------------

  /** Small libraries stream at once (mode 'inline'); large ones become a job whose link is mailed. */
  async startExport(userId: string): Promise<ExportStatus> {
    const size = await repo.libraryBytes(this.db, userId);
    const bytes = Number(size?.bytes ?? 0);
    if (bytes <= this.opts.exportInlineMaxBytes || !this.exportQueue.running) {
      return { mode: 'inline', url: '/api/account/export' };
    }
    const { id } = await repo.insertExport(this.db, userId);
    await this.exportQueue.sendAccountExport({ exportId: id, userId });
    return { mode: 'job', id, status: 'building', message: msg.exportBuilding };
  }

  /** The ZIP as a stream, read lazily as the response is written. */
  exportStream(userId: string): Readable {
    return exportArchive(this.db, this.storage, userId, this.log);
  }

  async listExports(userId: string) {
    const rows = await repo.listExports(this.db, userId);
    return Promise.all(
      rows.map(async (r) => ({
        id: r.id,
        status: r.status,
        created_at: new Date(r.created_at).toISOString(),
        size_bytes: r.size_bytes === null ? null : Number(r.size_bytes),
        url:
          r.status === 'ready' && r.storage_key
            ? await this.storage.signedUrl(r.storage_key, { expiresIn: 3600, downloadName: exportFileName(r.created_at) })
            : null,
      })),
    );
  }

  /** The export job: writes the ZIP to storage and mails a link. */
  async buildExport(exportId: string): Promise<void> {
    const row = await repo.findExport(this.db, exportId);
    if (!row || row.status !== 'building') return;
    const user = await repo.findAccount(this.db, row.user_id);
    if (!user) return;
    const key = `${row.user_id}/exports/${row.id}.zip`;
    try {
      const { size } = await this.storage.put(key, this.exportStream(row.user_id), { contentType: 'application/zip' });
      await repo.finishExport(this.db, row.id, { key, size });
    } catch (err) {
      this.log.warn({ err, exportId }, 'export: build failed');
      await repo.finishExport(this.db, row.id, { error: (err as Error).message ?? 'failed' });
      throw err;
    }
    const link = await this.storage.signedUrl(key, { expiresIn: EXPORT_LINK_HOURS * 3600, downloadName: exportFileName(row.created_at) });
    await this.mail.send(user.email, { kind: 'export_ready', name: user.full_name, link: absolute(link, this.opts.publicUrl), hours: EXPORT_LINK_HOURS }, { userId: user.id });
  }

  // ---- deletion ---------------------------------------------------------

  /**
   * Deletes the account: sessions, library files and personal rows go; the
   * user row stays as an anonymous tombstone so ledger, payment and audit
   * rows keep pointing at something and every sum still adds up.
   */
  async deleteAccount(userId: string, body: { password?: string; confirm?: string }): Promise<{ message: string }> {
    const user = await this.mustFind(userId);
    await this.checkPassword(user, body.password ?? '', msg.passwordIncorrect);
    if ((body.confirm ?? '').trim() !== DELETE_CONFIRMATION_WORD) throw new AppError('validation', msg.typeDelete);

    // Running tools stop first (their refunds go through the energy service as usual).
    for (const { id } of await repo.openJobIds(this.db, userId)) {
      await this.jobs.cancel(userId, id).catch(() => {});
    }
    const keys = await this.db.transaction(async (tx) => {
      if (user.role === 'admin') {
        await lockAdmins(tx);
        if ((await countOtherActiveAdmins(tx, userId)) === 0) throw new AppError('conflict', msg.lastAdmin);
      }
      const locked = await repo.lockAccount(tx, userId);
      if (!locked) throw new AppError('not_found', accessMessages.notFound);
      const stored = await repo.deletePersonalRows(tx, userId, locked.email);
      await repo.anonymizeUser(tx, userId);
      return stored;
    });
    // Files go after the commit: a failed deletion never leaves rows without files.
    for (const key of keys) {
      await this.storage.delete(key).catch((err: unknown) => this.log.warn({ err, key }, 'account deletion: file not removed'));
    }
    this.log.info({ userId, files: keys.length }, 'account deleted');
    return { message: msg.accountDeleted };
  }

  async housekeeping(): Promise<void> {
    await repo.pruneTokens(this.db);
  }

  private async mustFind(userId: string): Promise<repo.AccountRow> {
    const user = await repo.findAccount(this.db, userId);
    if (!user) throw new AppError('unauthenticated', accessMessages.sessionExpired);
    return user;
  }

  /**
   * Password checks for a signed-in person, counted before the check like
   * sign-in: a stolen session cannot guess the password on and on.
   */
  private async checkPassword(user: repo.AccountRow, password: string, wrong: string): Promise<void> {
    const verdict = await this.limiter.take([{ key: `password:account:${user.id}`, limit: PASSWORD_CHECKS_PER_MINUTE, windowSeconds: 60 }]);
    assertAllowed(verdict, authMessages.tooManyAttempts);
    if (!(await verifyPassword(user.password_hash, password))) throw new AppError('validation', wrong);
  }
}

function exportFileName(createdAt: Date): string {
  return `pixelrush-data-${new Date(createdAt).toISOString().slice(0, 10)}.zip`;
}

/** Local-disk links are paths on our origin; a mail needs the full address. */
function absolute(link: string, publicUrl: string): string {
  return /^https?:\/\//.test(link) ? link : `${publicUrl}${link}`;
}

export const exportInlineMaxBytes = (mb: number) => Math.floor(mb * MB);
