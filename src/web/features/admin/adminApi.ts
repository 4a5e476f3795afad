import { queryKeys } from '../../lib/queryKeys';

/** A row of GET /api/admin/audit */
export type { AuditEntry } from '../../../shared/admin.schema.js';

/** A row of GET /api/admin/users */
export type { AdminUser } from '../../../shared/admin-users.schema.js';

export const adminKeys = {
  all: ['admin'] as const,
  summary: ['admin', 'summary'] as const,
  audit: ['admin', 'audit'] as const,
  users: (q: string) => ['admin', 'users', q] as const,
  jobsAll: ['admin', 'jobs'] as const,
  jobs: (filters: Record<string, string>) => ['admin', 'jobs', filters] as const,
  failureRates: ['admin', 'jobs', 'failure-rates'] as const,
  charts: (days: number) => ['admin', 'jobs', 'charts', days] as const,
  welcomeGrant: ['admin', 'welcome-grant'] as const,
  /** Under the `pricing` prefix: the server announces a referral-mode change as a `pricing` event. */
  referralSetting: [...queryKeys.pricing, 'referral-setting'] as const,
  /** Under the `pricing` prefix: the live `pricing` event refreshes it. */
  plans: [...queryKeys.pricing, 'plans', 'all'] as const,
};

export const numberFormat = new Intl.NumberFormat('en-US');
export const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string | Date): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : dateTime.format(d);
}

/** requirements §5: the base cost is an integer; a non-number becomes 0 (and it cannot go below 0). */
export function parseBaseCost(text: string): number {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(n)) return 0;
  return Math.max(0, Math.trunc(n));
}

/** requirements §5: plan energy and bonus are whole numbers, at least 0; undefined when the text is not one. */
export function parseWholeNumber(text: string): number | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : undefined;
}
