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
