/**
 * Every user-facing sentence the spec quotes, in one place, so that the
 * server, the forms and the tests speak with exactly the same words.
 */
export const messages = {
  // Registration (SPEC §5)
  nameRequired: 'Full name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  inviteRequired: 'Invite code is required to create an account',
  inviteInvalid: 'Invalid or expired invite code',
  passwordsMismatch: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 6 characters long',
  termsRequired: 'You must agree to the Terms of Service to create an account',
  ageRequired: 'You must be at least 18 years old to use this service',
  emailTaken: 'An account with this email already exists',

  // Sign-in (SPEC §8)
  invalidCredentials: 'Invalid email or password',
  unexpected: 'An unexpected error occurred',
  tooManyAttempts: 'Too many attempts. Please wait a minute and try again.',
  noToken: 'No authentication token found',
  notAuthenticated: 'User not authenticated',
  sessionExpired: 'Your session has expired. Please sign in again.',
  forbidden: 'You do not have permission to do that',
  notFound: 'Not found',

  loadingWorkspace: 'Loading your AI workspace...',
} as const;

export type MessageKey = keyof typeof messages;

/** SPEC §5: 'Insufficient ENERGY. You need at least {cost} ENERGY to use {tool}' */
export function insufficientEnergyMessage(cost: number, tool: string): string {
  return `Insufficient ENERGY. You need at least ${cost} ENERGY to use ${tool}`;
}

/** Invites (SPEC §8) */
export const inviteMessages = {
  generated: (code: string) => `Generated invite code: ${code}`,
  generateFailed: 'Failed to generate invite code',
  deactivated: 'Invite code deactivated',
  deactivateFailed: 'Failed to deactivate invite code',
  maxUsesInvalid: 'Max uses must be a whole number of at least 1',
  expiryInvalid: 'Expiry must be a whole number of days, at least 1',
} as const;

/** Purchases (SPEC §8) */
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

/** Admin Dashboard (SPEC §2, §8) */
export const adminUiMessages = {
  updateSucceeded: 'All pricing, discount, and plan energy settings updated successfully!',
  updateFailed: 'Failed to update pricing',
  loadPricingFailed: (msg: string) => `Failed to load pricing data: ${msg}`,
  loadPlansFailed: (msg: string) => `Failed to load plan data: ${msg}`,
  noTools: 'No Tools Found',
  referralOnlyOn: 'REFERRAL-ONLY MODE ENABLED',
  referralOnlyOff: 'OPEN REGISTRATION',
} as const;

/** Purchase dialog and payment success page (SPEC §2, §4) */
export const purchaseUiMessages = {
  successTitle: 'Payment Successful!',
  dialogSuccessTitle: 'Purchase Successful!',
  secureNote: 'Secure payment processing',
  popular: 'POPULAR',
  energyAdded: (energy: number, balance: number) =>
    `${energy} ENERGY has been added to your account. New balance: ${balance} ENERGY`,
  redirecting: (seconds: number) => `Redirecting automatically in ${seconds} seconds...`,
} as const;
