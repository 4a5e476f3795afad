// The user-facing sentences the spec quotes, so the server, the forms and the tests speak with
// the same words: one file per part of the app (shared/*.messages.ts), so a page's script
// carries only the words of its own part (decision 032).

/** The app as a whole (requirements §2, §8) */
export const appMessages = {
  unexpected: 'An unexpected error occurred',
  loadingWorkspace: 'Loading your AI workspace...',
} as const;
