import { z } from 'zod';

/** Which checkout sells ENERGY: Stripe, the built-in test checkout, or none. */
export const paymentsMode = z.enum(['stripe', 'test', 'disabled']);
export type PaymentsMode = z.infer<typeof paymentsMode>;

export const paymentsConfigSchema = z.object({ mode: paymentsMode });

/** A checkout just opened: the page to send the browser to (Stripe's, or the test checkout's on our origin). */
export const checkoutStartedSchema = z.object({ url: z.string(), session_id: z.string() });

export const checkoutStatus = z.enum(['fulfilled', 'pending', 'failed', 'canceled', 'unknown']);
export type CheckoutStatus = z.infer<typeof checkoutStatus>;

/** What the success page shows of a checkout; energy_added stays 0 until it is fulfilled. */
export const checkoutSessionStatusSchema = z.object({
  status: checkoutStatus,
  plan_name: z.string(),
  energy_added: z.number().int(),
  amount_cents: z.number().int(),
});
export type CheckoutSessionStatus = z.infer<typeof checkoutSessionStatusSchema>;

/** The person's current plan. The status is Stripe's own word, kept as sent; only 'active' is active. */
export const subscriptionSchema = z.object({
  price_id: z.string(),
  subscription_status: z.string(),
  /** Null for a price that is none of our bundles. */
  plan_name: z.string().nullable(),
  is_active: z.boolean(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;
export const subscriptionResponseSchema = z.object({ subscription: subscriptionSchema.nullable() });
export type SubscriptionResponse = z.infer<typeof subscriptionResponseSchema>;

/** Stripe reads only the status; the event type helps whoever reads the delivery log. */
export const stripeWebhookAckSchema = z.object({ received: z.literal(true), type: z.string() });
