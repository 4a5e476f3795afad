/** requirements §5: 'Insufficient ENERGY. You need at least {cost} ENERGY to use {tool}' */
export function insufficientEnergyMessage(cost: number, tool: string): string {
  return `Insufficient ENERGY. You need at least ${cost} ENERGY to use ${tool}`;
}

/** ENERGY owed after a refund or dispute of ENERGY already spent (decision 028). */
export const owedMessages = {
  blocked: (owed: number) =>
    `A refunded or disputed purchase left ${owed} ENERGY owed. Buy ENERGY to settle it: new paid runs start again once it is paid.`,
  settled: (paid: number) => `Settles ${paid} ENERGY owed from a refunded or disputed purchase`,
} as const;
