/**
 * Why the app signed out by itself (an admin suspended the account), shown by the sign-in form:
 * the landing page has no toaster (decision 032), and the reason must not be lost.
 */
let notice: string | null = null;

export function setSignOutNotice(message: string): void {
  notice = message;
}

export function signOutNotice(): string | null {
  return notice;
}

/** Once shown: the next visit to the form starts clean. */
export function clearSignOutNotice(): void {
  notice = null;
}
