/** Invites (requirements §8) */
export const inviteMessages = {
  generated: (code: string) => `Generated invite code: ${code}`,
  generateFailed: 'Failed to generate invite code',
  deactivated: 'Invite code deactivated',
  deactivateFailed: 'Failed to deactivate invite code',
  maxUsesInvalid: 'Max uses must be a whole number of at least 1',
  expiryInvalid: 'Expiry must be a whole number of days, at least 1',
} as const;
