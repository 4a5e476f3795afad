export const PRODUCT_NAME = 'PixelRush';

/** SPEC §9 */
export const PASSWORD_MIN_LENGTH = 6;
export const MINIMUM_AGE = 18;
export const TRANSACTIONS_SHOWN = 10;
export const REFERRALS_SHOWN = 10;

export const ROLES = ['user', 'vip', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Login / registration throttle (reliability A2): failures per window. */
export const AUTH_FAILURE_LIMIT = 10;
export const AUTH_FAILURE_WINDOW_SECONDS = 60;

/** How long a session lives without use, and when it slides forward. */
export const SESSION_TTL_DAYS = 30;
export const SESSION_COOKIE = 'pr_session';
