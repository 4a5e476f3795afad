/** Who may call what (requirements §8) */
export const accessMessages = {
  noToken: 'No authentication token found',
  notAuthenticated: 'User not authenticated',
  sessionExpired: 'Your session has expired. Please sign in again.',
  forbidden: 'You do not have permission to do that',
  notFound: 'Not found',
  crossSite: 'This request did not come from this site and was refused',
} as const;
