/** Query keys shared across features, so invalidation (SSE, mutations) hits the right caches. */
export const queryKeys = {
  me: ['me'] as const,
  roles: (userId: string) => ['roles', userId] as const,
  pricing: ['pricing'] as const,
  transactions: ['transactions'] as const,
  subscription: ['subscription'] as const,
  referralSettings: ['settings', 'referral'] as const,
};
