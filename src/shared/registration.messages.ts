/** Registration (requirements §5) */
export const registrationMessages = {
  nameRequired: 'Full name is required',
  nameTooLong: 'Full name must be at most 100 characters',
  emailInvalid: 'Please enter a valid email address',
  inviteRequired: 'Invite code is required to create an account',
  inviteInvalid: 'Invalid or expired invite code',
  passwordsMismatch: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 6 characters long',
  passwordTooLong: 'Password must be at most 200 characters long',
  termsRequired: 'You must agree to the Terms of Service to create an account',
  ageRequired: 'You must be at least 18 years old to use this service',
  emailTaken: 'An account with this email already exists',
} as const;
