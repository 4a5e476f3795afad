import type { Rule } from '../limits/limiter.js';

export interface AuthLimits {
  signInPerAccountPerMinute: number;
  signInPerIpPerMinute: number;
  signInPerIpPerHour: number;
  signUpPerIpPerHour: number;
}

/** The settings' defaults (config.ts), for services built outside the app. */
export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  signInPerAccountPerMinute: 10,
  signInPerIpPerMinute: 20,
  signInPerIpPerHour: 100,
  signUpPerIpPerHour: 20,
};

const MINUTE = 60;
const HOUR = 3600;

/**
 * What one sign-in attempt counts against, before the password is checked.
 * Per address, two tiers: a burst is stopped for a minute, a steady stream
 * for up to an hour. Per account and address: one address cannot guess one
 * account quickly. Per account (only from addresses the account never signed
 * in from): many addresses together get at most the same few guesses a
 * minute, while the owner at a known address keeps a door of their own.
 */
export function signInRules(limits: AuthLimits, email: string, ip: string, knownAddress: boolean): Rule[] {
  const perAccount = limits.signInPerAccountPerMinute;
  const rules: Rule[] = [
    { key: `signin:ip:${ip}`, limit: limits.signInPerIpPerMinute, windowSeconds: MINUTE },
    { key: `signin:ip:${ip}`, limit: limits.signInPerIpPerHour, windowSeconds: HOUR },
    { key: `${accountIpKeyPrefix(email)}${ip}`, limit: perAccount, windowSeconds: MINUTE },
    { key: `${accountIpKeyPrefix(email)}${ip}`, limit: perAccount * 3, windowSeconds: HOUR },
  ];
  if (!knownAddress) rules.push({ key: accountWideKey(email), limit: perAccount, windowSeconds: MINUTE });
  return rules;
}

/** What every per-account-and-address key starts with; the address follows. */
export const accountIpKeyPrefix = (email: string) => `signin:account-ip:${email}|`;

/** The account-wide rule's key: every address the account never signed in from shares it. */
export const accountWideKey = (email: string) => `signin:account:${email}`;

/** Every sign-up attempt from one address, whatever its outcome (it also slows probing which e-mails exist). */
export function signUpRules(limits: AuthLimits, ip: string): Rule[] {
  return [{ key: `signup:ip:${ip}`, limit: limits.signUpPerIpPerHour, windowSeconds: HOUR }];
}

export function authLimitsOf(config: {
  SIGNIN_PER_ACCOUNT_PER_MINUTE: number;
  SIGNIN_PER_IP_PER_MINUTE: number;
  SIGNIN_PER_IP_PER_HOUR: number;
  SIGNUP_PER_IP_PER_HOUR: number;
}): AuthLimits {
  return {
    signInPerAccountPerMinute: config.SIGNIN_PER_ACCOUNT_PER_MINUTE,
    signInPerIpPerMinute: config.SIGNIN_PER_IP_PER_MINUTE,
    signInPerIpPerHour: config.SIGNIN_PER_IP_PER_HOUR,
    signUpPerIpPerHour: config.SIGNUP_PER_IP_PER_HOUR,
  };
}
