import { describe, expect, it } from 'vitest';
import { toActiveProduct } from './useActiveProduct';

describe('toActiveProduct', () => {
  it('reads GET /api/subscription', () => {
    expect(toActiveProduct(null)).toBeNull();
    expect(toActiveProduct({ subscription: null })).toBeNull();
    expect(toActiveProduct({ subscription: { price_id: 'p', subscription_status: 'active', plan_name: null, is_active: true } })).toBeNull();
    expect(
      toActiveProduct({ subscription: { price_id: 'p', subscription_status: 'active', plan_name: 'Pro', is_active: true } }),
    ).toEqual({ name: 'Pro', isActive: true });
    expect(
      toActiveProduct({ subscription: { price_id: 'p', subscription_status: 'past_due', plan_name: 'Pro', is_active: false } }),
    ).toEqual({ name: 'Pro', isActive: false });
  });
});
