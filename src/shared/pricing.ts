/** floor(base x (100 - discount) / 100), never below 0 (requirements §3, reliability L6). */
export function effectiveCost(baseCost: number, discountPercentage: number): number {
  const base = Math.max(0, Math.trunc(baseCost) || 0);
  const discount = Math.min(100, Math.max(0, Math.trunc(discountPercentage) || 0));
  return Math.max(0, Math.floor((base * (100 - discount)) / 100));
}
