/** Purchases (requirements §8) */
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

/** Purchase dialog and payment success page (requirements §2, §4) */
export const purchaseUiMessages = {
  successTitle: 'Payment Successful!',
  dialogSuccessTitle: 'Purchase Successful!',
  secureNote: 'Secure payment processing',
  popular: 'POPULAR',
  energyAdded: (energy: number, balance: number) =>
    `${energy} ENERGY has been added to your account. New balance: ${balance} ENERGY`,
  redirecting: (seconds: number) => `Redirecting automatically in ${seconds} seconds...`,
} as const;

/** An admin's refund of a purchase. */
export const refundMessages = {
  notFound: 'Purchase not found',
  notPaid: 'Only a paid purchase can be refunded',
  otherProvider: 'This purchase was made through a checkout this install no longer uses: refund it there',
  nothingLeft: 'This purchase has been refunded in full already',
  badAmount: (remainingCents: number) => `The refund must be a whole number of cents from 1 to ${remainingCents}`,
  failed: 'The refund could not be made right now. Please try again.',
} as const;
