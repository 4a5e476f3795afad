/** Sign-in (requirements §8) */
export const authMessages = {
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  invalidCredentials: 'Invalid email or password',
  tooManyAttempts: 'Too many attempts. Please wait a minute and try again.',
} as const;
