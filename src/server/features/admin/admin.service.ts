import type { Db, Queryable } from '../../db/db.js';
import { z } from 'zod';
import { AppError } from '../../core/errors.js';
import { decodeOptionalCursor, pageOf, seqKey } from '../../core/cursor.js';
import type { Page } from '../../../shared/page.schema.js';
import type { AdminUser, GrantResult, RoleResult, SuspensionResult } from '../../../shared/admin-users.schema.js';
import type { AuditEntry, PlatformSummary, PricingUpdateResult } from '../../../shared/admin.schema.js';
import { accessMessages } from '../../../shared/access.messages.js';
import { suspensionMessages } from '../../../shared/account.messages.js';
import type { Role } from '../../../shared/constants.js';
import type { AuthenticatedUser } from '../auth/auth.service.js';
import type { EnergyService } from '../energy/energy.service.js';
import * as pricingRepo from '../pricing/pricing.repo.js';
import { ACCOUNT_SUSPENDED_EVENT, type RealtimeHub } from '../../realtime/realtime-hub.js';
import * as repo from './admin.repo.js';
import { adminMessages, parsePricingUpdate } from './admin.schema.js';
import type { ServerEventData } from '../../../shared/events.schema.js';

/** Audit action names (admin_audit.action). */
export const AUDIT_ACTIONS = {
  toolPricing: 'update_tool_pricing',
  planEnergy: 'update_plan_energy',
  referralOnly: 'set_referral_only',
  welcomeEnergy: 'set_welcome_energy',
  grant: 'grant_energy',
  role: 'set_role',
  suspend: 'suspend_user',
  reinstate: 'reinstate_user',
} as const;

/** What a suspension asks of the tools feature: the account's runs that have not ended, cancelled and refunded. */
export interface OpenRunsPort {
  cancelOpenRunsOf(userId: string): Promise<number>;
}

/** One kind of priced row an admin edits: how it is locked and saved, and which of its values are edited. */
interface PricedRows<Row, Values extends Record<string, number>> {
  action: string;
  lock(tx: Queryable, keys: string[]): Promise<Row[]>;
  keyOf(row: Row): string;
  unknown(key: string): string;
  valuesOf(row: Row): Values;
  save(tx: Queryable, key: string, values: Values): Promise<unknown>;
}

const TOOL_PRICES: PricedRows<pricingRepo.ToolPricingRow, { base_energy_cost: number; discount_percentage: number }> = {
  action: AUDIT_ACTIONS.toolPricing,
  lock: pricingRepo.lockToolPricing,
  keyOf: (row) => row.tool_name,
  unknown: adminMessages.unknownTool,
  valuesOf: (row) => ({ base_energy_cost: row.base_energy_cost, discount_percentage: row.discount_percentage }),
  save: (tx, name, v) => pricingRepo.updateToolPricing(tx, name, v.base_energy_cost, v.discount_percentage),
};

const PLAN_ENERGY: PricedRows<pricingRepo.PlanRow, { energy_amount: number; bonus_energy: number }> = {
  action: AUDIT_ACTIONS.planEnergy,
  lock: pricingRepo.lockPlans,
  keyOf: (row) => row.price_id,
  unknown: adminMessages.unknownPlan,
  valuesOf: (row) => ({ energy_amount: row.energy_amount, bonus_energy: row.bonus_energy }),
  save: (tx, priceId, v) => pricingRepo.updatePlanEnergy(tx, priceId, v.energy_amount, v.bonus_energy),
};

/** Users are listed by e-mail, then id. */
const emailKey = z.tuple([z.string().max(400), z.uuid()]);

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every method re-checks the role: the service is safe even if a route forgot to. */
export function assertAdmin(user: Pick<AuthenticatedUser, 'role'> | null | undefined): asserts user {
  if (!user) throw new AppError('unauthenticated', accessMessages.noToken);
  if (user.role !== 'admin') throw new AppError('forbidden', accessMessages.forbidden);
}

export class AdminService {
  constructor(
    private readonly db: Db,
    private readonly energy: EnergyService,
    private readonly realtime: RealtimeHub,
    private readonly log: { error: (obj: unknown, msg?: string) => void } = console,
    private readonly runs?: OpenRunsPort,
  ) {}

  /**
   * POST /functions/v1/admin-update-pricing: validates everything first, then
   * applies every change in ONE transaction with an audit row per changed
   * tool or plan; listeners get a `pricing` event when it commits.
   */
  async updatePricing(admin: AuthenticatedUser, body: unknown): Promise<PricingUpdateResult> {
    assertAdmin(admin);
    const update = parsePricingUpdate(body);
    try {
      const changes = await this.db.transaction(async (tx) => {
        await this.stillAdmin(tx, admin.id);
        const toolNames = [...new Set([...update.toolPrices.keys(), ...update.toolDiscounts.keys()])];
        const toolPrices = new Map(
          toolNames.map((name) => [name, { base_energy_cost: update.toolPrices.get(name), discount_percentage: update.toolDiscounts.get(name) }]),
        );
        const planEnergy = new Map(
          [...update.planEnergy].map(([priceId, wanted]) => [priceId, { energy_amount: wanted.energyAmount, bonus_energy: wanted.bonusEnergy }]),
        );
        const toolChanges = await this.saveChanged(tx, admin, TOOL_PRICES, toolPrices);
        const planChanges = await this.saveChanged(tx, admin, PLAN_ENERGY, planEnergy);
        const changed = toolChanges + planChanges;
        const scopes = [...(toolChanges ? ['tools'] : []), ...(planChanges ? ['plans'] : [])];

        // Sent with the commit, never for a rolled-back save.
        if (changed > 0) await this.realtime.publish('pricing', null, { changed: scopes } satisfies ServerEventData<'pricing'>, tx);
        return changed;
      });
      return { success: true, message: adminMessages.updateSucceeded, changes };
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.log.error({ err }, 'admin pricing update failed');
      throw new AppError('internal', adminMessages.updateFailed);
    }
  }

  /**
   * Locks the rows named in `wanted`, refuses a name with no row, then saves each row whose values
   * change (a value left out keeps the row's) with an audit row of before and after; how many changed.
   */
  private async saveChanged<Row, Values extends Record<string, number>>(
    tx: Queryable,
    admin: AuthenticatedUser,
    rows: PricedRows<Row, Values>,
    wanted: Map<string, { [K in keyof Values]?: number }>,
  ): Promise<number> {
    const keys = [...wanted.keys()];
    const locked = new Map((await rows.lock(tx, keys)).map((row) => [rows.keyOf(row), row]));
    for (const key of keys) {
      if (!locked.has(key)) throw new AppError('validation', rows.unknown(key));
    }
    let changed = 0;
    for (const key of keys) {
      const before = rows.valuesOf(locked.get(key)!);
      const asked = wanted.get(key)!;
      const after = Object.fromEntries(Object.entries(before).map(([field, value]) => [field, asked[field] ?? value])) as Values;
      if (Object.keys(before).every((field) => before[field] === after[field])) continue;
      await rows.save(tx, key, after);
      await repo.insertAudit(tx, { adminId: admin.id, action: rows.action, target: key, oldValue: before, newValue: after });
      changed += 1;
    }
    return changed;
  }

  async summary(admin: AuthenticatedUser): Promise<PlatformSummary> {
    assertAdmin(admin);
    const [totals, runs] = await Promise.all([repo.platformSummary(this.db), repo.runsByTool(this.db)]);
    return {
      accounts: totals.accounts,
      vip_accounts: totals.vip_accounts,
      admin_accounts: totals.admin_accounts,
      energy_sold: totals.energy_sold,
      energy_spent: totals.energy_spent - totals.energy_refunded,
      energy_refunded: totals.energy_refunded,
      energy_granted: totals.energy_granted,
      energy_in_balances: totals.energy_in_balances,
      revenue_cents: totals.revenue_cents,
      purchases: totals.purchases,
      runs_by_tool: runs,
      generated_at: new Date().toISOString(),
    };
  }

  /** Newest first; next_cursor pages to older entries. */
  async listAudit(admin: AuthenticatedUser, limit = 50, cursor?: string): Promise<Page<AuditEntry>> {
    assertAdmin(admin);
    const size = Math.min(Math.max(Math.trunc(limit) || 50, 1), 100);
    const before = decodeOptionalCursor(cursor, seqKey)?.[0];
    const page = pageOf(await repo.listAudit(this.db, size + 1, before), size, (row) => [Number(row.id)]);
    return {
      items: page.rows.map((r) => ({ ...r, id: Number(r.id), created_at: new Date(r.created_at).toISOString() })),
      next_cursor: page.next_cursor,
    };
  }

  async searchUsers(admin: AuthenticatedUser, query: string, limit = 50, cursor?: string): Promise<Page<AdminUser>> {
    assertAdmin(admin);
    const after = decodeOptionalCursor(cursor, emailKey);
    const page = pageOf(await repo.searchUsers(this.db, query.trim().toLowerCase(), limit + 1, after), limit, (u) => [u.email, u.id]);
    return {
      items: page.rows.map((u) => ({ ...u, created_at: new Date(u.created_at).toISOString(), suspended_at: u.suspended_at ? new Date(u.suspended_at).toISOString() : null })),
      next_cursor: page.next_cursor,
    };
  }

  /** Gives ENERGY through the ledger (EnergyService.grant) and audits it, in one transaction. */
  async grantEnergy(
    admin: AuthenticatedUser,
    userId: string,
    amount: number,
    reason?: string,
  ): Promise<GrantResult> {
    assertAdmin(admin);
    if (!UUID_RE.test(userId)) throw new AppError('not_found', adminMessages.userNotFound);
    const description = reason?.trim() || 'Granted by admin';
    const balance = await this.db.transaction(async (tx) => {
      await this.stillAdmin(tx, admin.id);
      const target = await repo.findUser(tx, userId);
      if (!target) throw new AppError('not_found', adminMessages.userNotFound);
      await repo.ensureProfile(tx, userId);
      const after = await this.energy.grant(userId, amount, description, tx);
      await repo.insertAudit(tx, {
        adminId: admin.id,
        action: AUDIT_ACTIONS.grant,
        target: userId,
        oldValue: { energy_balance: target.energy_balance },
        newValue: { energy_balance: after, amount, reason: description },
      });
      return after;
    });
    return { user_id: userId, amount, energy_balance: balance };
  }

  /** The actor is an admin as of now (not as of the request's start), and stays one until the change commits. */
  private async stillAdmin(tx: Queryable, adminId: string): Promise<void> {
    if ((await repo.holdActorRole(tx, adminId)) !== 'admin') throw new AppError('forbidden', accessMessages.forbidden);
  }

  async setRole(admin: AuthenticatedUser, userId: string, role: Role): Promise<RoleResult> {
    assertAdmin(admin);
    if (!UUID_RE.test(userId)) throw new AppError('not_found', adminMessages.userNotFound);
    // An admin demoting themself could lock every admin out; another admin (or the CLI) must do it.
    if (userId === admin.id) throw new AppError('conflict', adminMessages.ownRole);
    await this.db.transaction(async (tx) => {
      // The actor's role is checked here, inside the change, not from the request's start:
      // two admins demoting each other at once leave one admin (the second finds itself demoted).
      const roles = await repo.lockRoles(tx, [admin.id, userId]);
      if (roles.get(admin.id) !== 'admin') throw new AppError('forbidden', accessMessages.forbidden);
      const old = roles.get(userId);
      if (!old) throw new AppError('not_found', adminMessages.userNotFound);
      if (old === role) return;
      await repo.setRole(tx, userId, role);
      await repo.insertAudit(tx, {
        adminId: admin.id,
        action: AUDIT_ACTIONS.role,
        target: userId,
        oldValue: { role: old },
        newValue: { role },
      });
      // The user's open screens reload /api/me and prices (VIP and admin run tools free).
      await this.realtime.publish('profile', userId, { role } satisfies ServerEventData<'profile'>, tx);
    });
    return { user_id: userId, role };
  }

  /**
   * Suspends an account at once (decision 028): its sessions end, its API keys stop authenticating,
   * its queued and running runs are cancelled and refunded, and its open screens hear of it. An
   * admin cannot suspend themself, and an admin account is suspended only while another admin who
   * can still sign in remains (two admins suspending each other at once: the second is refused).
   */
  async suspend(admin: AuthenticatedUser, userId: string, reason?: string): Promise<SuspensionResult> {
    assertAdmin(admin);
    if (!UUID_RE.test(userId)) throw new AppError('not_found', adminMessages.userNotFound);
    if (userId === admin.id) throw new AppError('conflict', suspensionMessages.ownAccount);
    const note = reason?.trim() || null;
    const sessionsEnded = await this.db.transaction(async (tx) => {
      // Admins first, then the account: the order every "last admin" check takes.
      await repo.lockAdmins(tx);
      const target = await repo.lockAccountForSuspension(tx, userId);
      if (!target) throw new AppError('not_found', adminMessages.userNotFound);
      if (target.suspended_at) return 0;
      if (target.role === 'admin' && (await repo.countOtherActiveAdmins(tx, userId)) === 0) throw new AppError('conflict', suspensionMessages.lastAdmin);
      // The actor as of now, not as of the request's start (a suspended or demoted admin acts no more).
      if (!(await repo.actorCanAct(tx, admin.id))) throw new AppError('forbidden', accessMessages.forbidden);
      const ended = await repo.suspendAccount(tx, userId, note);
      await repo.insertAudit(tx, {
        adminId: admin.id,
        action: AUDIT_ACTIONS.suspend,
        target: userId,
        oldValue: { suspended: false },
        newValue: { suspended: true, reason: note, sessions_ended: ended },
      });
      // Open screens of the account sign out (their streams are closed once it is sent).
      await this.realtime.publish(ACCOUNT_SUSPENDED_EVENT, userId, {}, tx);
      return ended;
    });
    // After the commit: a run being charged held the account row, so it is in the table by now.
    const runsCancelled = (await this.runs?.cancelOpenRunsOf(userId)) ?? 0;
    return { user_id: userId, suspended: true, sessions_ended: sessionsEnded, runs_cancelled: runsCancelled };
  }

  /** Lifts a suspension: the owner can sign in again, and API keys that were not revoked work again. */
  async reinstate(admin: AuthenticatedUser, userId: string): Promise<SuspensionResult> {
    assertAdmin(admin);
    if (!UUID_RE.test(userId)) throw new AppError('not_found', adminMessages.userNotFound);
    await this.db.transaction(async (tx) => {
      if (!(await repo.actorCanAct(tx, admin.id))) throw new AppError('forbidden', accessMessages.forbidden);
      const target = await repo.lockAccountForSuspension(tx, userId);
      if (!target) throw new AppError('not_found', adminMessages.userNotFound);
      if (!target.suspended_at) return;
      await repo.reinstateAccount(tx, userId);
      await repo.insertAudit(tx, {
        adminId: admin.id,
        action: AUDIT_ACTIONS.reinstate,
        target: userId,
        oldValue: { suspended: true },
        newValue: { suspended: false },
      });
    });
    return { user_id: userId, suspended: false, sessions_ended: 0, runs_cancelled: 0 };
  }
}
