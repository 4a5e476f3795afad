import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';

export interface ProfileRow {
  id: string;
  email: string;
  full_name: string;
  role: string;
  energy_balance: number;
  total_energy_purchased: number;
  energy_owed: number;
}

/** requirements §4: a missing profile is created with energy 0 and total purchased 0. */
export function ensureProfile(db: Queryable, userId: string) {
  return db.query('INSERT INTO user_profiles (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [userId]);
}

export function findProfile(db: Queryable, userId: string) {
  return one<ProfileRow>(
    db,
    `SELECT u.id, u.email, u.full_name, u.role, p.energy_balance, p.total_energy_purchased, p.energy_owed
       FROM users u JOIN user_profiles p ON p.id = u.id
      WHERE u.id = $1`,
    [userId],
  );
}

export function findUserIdByEmail(db: Queryable, email: string) {
  return one<{ id: string; role: string }>(db, 'SELECT id, role FROM users WHERE email = $1', [email]);
}

export function setRole(db: Queryable, userId: string, role: string) {
  return db.query('UPDATE users SET role = $2, updated_at = now() WHERE id = $1', [userId, role]);
}
