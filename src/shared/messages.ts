/**
 * Every user-facing sentence the spec quotes, in one place, so that the
 * server, the forms and the tests speak with exactly the same words.
 */
export const messages = {
  // Registration (requirements §5)
  nameRequired: 'Full name is required',
  nameTooLong: 'Full name must be at most 100 characters',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  inviteRequired: 'Invite code is required to create an account',
  inviteInvalid: 'Invalid or expired invite code',
  passwordsMismatch: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 6 characters long',
  passwordTooLong: 'Password must be at most 200 characters long',
  termsRequired: 'You must agree to the Terms of Service to create an account',
  ageRequired: 'You must be at least 18 years old to use this service',
  emailTaken: 'An account with this email already exists',

  // Sign-in (requirements §8)
  invalidCredentials: 'Invalid email or password',
  unexpected: 'An unexpected error occurred',
  tooManyAttempts: 'Too many attempts. Please wait a minute and try again.',
  noToken: 'No authentication token found',
  notAuthenticated: 'User not authenticated',
  sessionExpired: 'Your session has expired. Please sign in again.',
  forbidden: 'You do not have permission to do that',
  notFound: 'Not found',
  crossSite: 'This request did not come from this site and was refused',

  loadingWorkspace: 'Loading your AI workspace...',
} as const;

/** requirements §5: 'Insufficient ENERGY. You need at least {cost} ENERGY to use {tool}' */
export function insufficientEnergyMessage(cost: number, tool: string): string {
  return `Insufficient ENERGY. You need at least ${cost} ENERGY to use ${tool}`;
}

/** ENERGY owed after a refund or dispute of ENERGY already spent (decision 028). */
export const owedMessages = {
  blocked: (owed: number) =>
    `A refunded or disputed purchase left ${owed} ENERGY owed. Buy ENERGY to settle it: new paid runs start again once it is paid.`,
  settled: (paid: number) => `Settles ${paid} ENERGY owed from a refunded or disputed purchase`,
} as const;

/** A suspended account (decision 028): what its owner and the admin are told. */
export const suspensionMessages = {
  signIn: 'This account has been suspended. If you think this is a mistake, please contact support.',
  runCancelled: 'The run was cancelled because the account was suspended. Its ENERGY has been refunded.',
  ownAccount: 'You cannot suspend your own account',
  lastAdmin: 'The last admin cannot be suspended',
} as const;

/** An admin's refund of a purchase. */
export const refundMessages = {
  notFound: 'Purchase not found',
  notPaid: 'Only a paid purchase can be refunded',
  otherProvider: 'This purchase was made through a checkout this install no longer uses: refund it there',
  nothingLeft: 'This purchase has been refunded in full already',
  badAmount: (remainingCents: number) => `The refund must be a whole number of cents from 1 to ${remainingCents}`,
  failed: 'The refund could not be made right now. Please try again.',
} as const;

/** Rate limits and quotas: what was refused and what to do about it. */
export const limitMessages = {
  uploads: (n: number) => `Upload limit reached: at most ${n} uploads an hour. Please try again later.`,
  urlImports: (n: number) => `Import limit reached: at most ${n} URL imports an hour. Please try again later.`,
  fetchesAtOnce: (n: number) => `Too many imports at once: at most ${n} can run together. Please wait for one to finish.`,
  toolRuns: (n: number) => `Too many runs started: at most ${n} a minute. Please wait a moment and try again.`,
  openRuns: (n: number) => `You already have ${n} runs waiting or running. Please wait for one to finish before starting another.`,
  interpretations: (n: number) => `Too many requests read: at most ${n} a minute. Please wait a moment and try again.`,
  shareViews: 'Too many requests for shared pictures. Please try again in a minute.',
  conversions: (n: number) => `Too many converted downloads: at most ${n} a minute. Please wait a moment and try again.`,
  storageFull: (quota: string) => `Storage limit reached: your library can hold ${quota}. Delete some items to make room.`,
  storageFullForRuns: (quota: string) =>
    `Storage limit reached: your library can hold ${quota}, and a run's result is kept in it. Delete some items to make room, then run the tool again.`,
} as const;

/** A tool run's source refused before any charge (the same words for a single run and a batch retry). */
export const sourceMessages = {
  notFound: (kind: 'image' | 'video') => `This ${kind} is not in your library: pick another one`,
  wrongKind: (kind: 'image' | 'video') => (kind === 'image' ? 'This tool needs an image, not a video' : 'This tool needs a video, not an image'),
  notReady: 'This item is not ready yet',
  tooLarge: (limit: string) => `File is too large (max ${limit})`,
} as const;

/** Requests refused at the edge, whatever the route. */
export const inputMessages = {
  unstorable: 'The request contains characters that cannot be accepted',
  numberOutOfRange: 'The request contains a number that is out of range',
  tooDeep: 'The request is nested too deeply',
  malformedJson: 'The request body is not valid JSON',
  unsupportedMediaType: 'The request body has a content type this endpoint does not accept',
  bodyTooLarge: 'The request body is too large',
  malformedRequest: 'The request is malformed',
  malformedUrl: 'The address contains an escape that is not valid',
} as const;

/** Invites (requirements §8) */
export const inviteMessages = {
  generated: (code: string) => `Generated invite code: ${code}`,
  generateFailed: 'Failed to generate invite code',
  deactivated: 'Invite code deactivated',
  deactivateFailed: 'Failed to deactivate invite code',
  maxUsesInvalid: 'Max uses must be a whole number of at least 1',
  expiryInvalid: 'Expiry must be a whole number of days, at least 1',
} as const;

/** Purchases (requirements §8) */
export const purchaseMessages = {
  createFailed: 'Failed to create checkout session',
  noUrl: 'No checkout URL received',
  failed: 'Purchase failed',
  unavailable: 'Purchases are currently unavailable',
  unknownBundle: 'This bundle is not available',
  badMode: "Checkout mode must be 'payment'",
  foreignRedirect: 'Redirect URLs must point to this site',
  badSignature: 'Invalid webhook signature',
} as const;

/** Admin Dashboard (requirements §2, §8) */
export const adminUiMessages = {
  updateSucceeded: 'All pricing, discount, and plan energy settings updated successfully!',
  updateFailed: 'Failed to update pricing',
  loadPricingFailed: (msg: string) => `Failed to load pricing data: ${msg}`,
  loadPlansFailed: (msg: string) => `Failed to load plan data: ${msg}`,
  noTools: 'No Tools Found',
  referralOnlyOn: 'REFERRAL-ONLY MODE ENABLED',
  referralOnlyOff: 'OPEN REGISTRATION',
} as const;

/** Purchase dialog and payment success page (requirements §2, §4) */
export const purchaseUiMessages = {
  successTitle: 'Payment Successful!',
  dialogSuccessTitle: 'Purchase Successful!',
  secureNote: 'Secure payment processing',
  popular: 'POPULAR',
  energyAdded: (energy: number, balance: number) =>
    `${energy} ENERGY has been added to your account. New balance: ${balance} ENERGY`,
  redirecting: (seconds: number) => `Redirecting automatically in ${seconds} seconds...`,
} as const;

/** Account self-service: password reset and change, sessions, export, deletion, e-mail confirmation. */
export const accountMessages = {
  resetRequested: 'If an account exists for that email, we have sent it a link to reset the password. The link expires in 30 minutes.',
  resetThrottled: 'Too many reset requests. Please wait 15 minutes and try again.',
  resetLinkInvalid: 'This reset link is invalid or has expired. Please ask for a new one.',
  passwordReset: 'Your password has been changed. Sign in with your new password.',
  currentPasswordWrong: 'Current password is incorrect',
  passwordChanged: 'Password changed. Your other devices were signed out.',
  passwordIncorrect: 'Password is incorrect',
  typeDelete: 'Type DELETE to confirm',
  lastAdmin: 'You are the only admin. Make someone else an admin before deleting your account.',
  sessionNotFound: 'Session not found',
  otherSessionsEnded: (n: number) => (n === 1 ? 'Signed out 1 other session.' : `Signed out ${n} other sessions.`),
  verifyLinkInvalid: 'This confirmation link is invalid or has expired.',
  emailVerified: 'Your email is confirmed.',
  verifyFirst: 'Please confirm your email first: use the link we sent you.',
  verificationSent: 'We sent you a new confirmation link.',
  exportBuilding: 'Your archive is being built. We will email you a link when it is ready.',
  accountDeleted: 'Your account has been deleted.',
} as const;
