export const PRODUCT_NAME = 'PixelRush';

/** requirements §9 */
export const PASSWORD_MIN_LENGTH = 6;
/** Bounds on what an account stores (and on the work a password check costs). */
export const PASSWORD_MAX_LENGTH = 200;
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const TRANSACTIONS_SHOWN = 10;
export const REFERRALS_SHOWN = 10;

export const ROLES = ['user', 'vip', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** How long a session lives without use, and when it slides forward. */
export const SESSION_TTL_DAYS = 30;
export const SESSION_COOKIE = 'pr_session';

/** Account self-service: link lifetimes and the reset-request throttle. */
export const RESET_LINK_MINUTES = 30;
export const VERIFY_LINK_HOURS = 48;
export const EXPORT_LINK_HOURS = 24;
export const RESET_THROTTLE_WINDOW_SECONDS = 15 * 60;
export const RESET_REQUESTS_PER_ADDRESS = 3;
export const RESET_REQUESTS_PER_IP = 10;
/** Current-password checks (change password, delete account) per account per minute. */
export const PASSWORD_CHECKS_PER_MINUTE = 10;
/** Setting a new password with a reset link, counted like sign-in: per address (minute and hour) and per account. */
export const RESET_ATTEMPTS_PER_IP_PER_MINUTE = 20;
export const RESET_ATTEMPTS_PER_IP_PER_HOUR = 100;
export const RESET_ATTEMPTS_PER_ACCOUNT_PER_MINUTE = 10;
/** A session's "last seen" is written at most this often. */
export const SESSION_SEEN_INTERVAL_SECONDS = 5 * 60;
/** What the delete dialog asks the person to type. */
export const DELETE_CONFIRMATION_WORD = 'DELETE';
