import { createContext, useContext } from 'react';

/** Lets any dashboard view open the 'Purchase ENERGY' dialog (e.g. after 'Insufficient ENERGY'). */
export const PurchaseDialogContext = createContext<{ openPurchase: () => void }>({ openPurchase: () => {} });

export function usePurchaseDialog() {
  return useContext(PurchaseDialogContext);
}
