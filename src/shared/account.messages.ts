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

/** A suspended account (decision 028): what its owner and the admin are told. */
export const suspensionMessages = {
  signIn: 'This account has been suspended. If you think this is a mistake, please contact support.',
  runCancelled: 'The run was cancelled because the account was suspended. Its ENERGY has been refunded.',
  ownAccount: 'You cannot suspend your own account',
  lastAdmin: 'The last admin cannot be suspended',
} as const;
