import type { Db } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import { accessMessages } from '../../../shared/access.messages.js';
import { ROLES, type Role } from '../../../shared/constants.js';
import type { MeResponse } from '../../../shared/profile.schema.js';
import * as repo from './profiles.repo.js';

export class ProfilesService {
  constructor(private readonly db: Db) {}

  async getMe(userId: string): Promise<MeResponse> {
    let row = await repo.findProfile(this.db, userId);
    if (!row) {
      await repo.ensureProfile(this.db, userId);
      row = await repo.findProfile(this.db, userId);
    }
    if (!row) throw new AppError('not_found', accessMessages.notAuthenticated);
    return {
      id: row.id,
      email: row.email,
      full_name: row.full_name,
      energy_balance: row.energy_balance,
      total_energy_purchased: row.total_energy_purchased,
      energy_owed: row.energy_owed,
      is_vip: row.role === 'vip',
      is_admin: row.role === 'admin',
    };
  }

  /** Operator command: set a role by e-mail. */
  async setRoleByEmail(email: string, role: string): Promise<void> {
    if (!(ROLES as readonly string[]).includes(role)) {
      throw new AppError('validation', `Unknown role '${role}' (use ${ROLES.join(', ')})`);
    }
    const user = await repo.findUserIdByEmail(this.db, email.trim().toLowerCase());
    if (!user) throw new AppError('not_found', `No account with e-mail ${email}`);
    await repo.setRole(this.db, user.id, role as Role);
  }

  async userIdByEmail(email: string): Promise<string> {
    const user = await repo.findUserIdByEmail(this.db, email.trim().toLowerCase());
    if (!user) throw new AppError('not_found', `No account with e-mail ${email}`);
    return user.id;
  }
}
