import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/auth-context.js';
import {
  checkoutSessionStatusSchema,
  checkoutStartedSchema,
  paymentsConfigSchema,
  stripeWebhookAckSchema,
  subscriptionResponseSchema,
} from '../../../shared/payments.schema.js';

const checkoutBody = z.object({
  price_id: z.unknown().optional(),
  mode: z.unknown().optional(),
  success_url: z.unknown().optional(),
  cancel_url: z.unknown().optional(),
});

export const paymentsRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { payments, auth } = ctx.services;
  // Before the first route answers: a wrong Stripe price stops the start here.
  await payments.prepare();

  r.post(
    '/functions/v1/stripe-checkout',
    { config: { auth: 'user', verifiedEmail: true }, schema: { body: checkoutBody, tags: ['payments'], summary: 'Start buying ENERGY', response: { 200: checkoutStartedSchema } } },
    async (req) => {
      const user = await requireUser(req, auth);
      return payments.createCheckout(user.id, req.body);
    },
  );

  r.get(
    '/api/checkout/sessions/:id',
    {
      config: { auth: 'user' },
      schema: { params: z.object({ id: z.string().max(255) }), tags: ['payments'], summary: 'How a purchase went', response: { 200: checkoutSessionStatusSchema } },
    },
    async (req) => {
      const user = await requireUser(req, auth);
      return payments.sessionStatus(user.id, req.params.id);
    },
  );

  r.get('/api/subscription', { config: { auth: 'user' }, schema: { tags: ['payments'], summary: 'Your subscription', response: { 200: subscriptionResponseSchema } } }, async (req) => {
    const user = await requireUser(req, auth);
    return { subscription: await payments.getSubscription(user.id) };
  });

  r.get('/api/payments/config', { config: { auth: 'public' }, schema: { tags: ['payments'], summary: 'Which checkout this install uses', response: { 200: paymentsConfigSchema } } }, async () => ({
    mode: payments.mode,
  }));

  // The webhook needs the raw bytes: the signature is over them, so this
  // plugin reads JSON bodies as a Buffer instead of parsing them.
  await app.register(async (raw) => {
    raw.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) => done(null, body));
    raw.post('/api/webhooks/stripe', { config: { auth: 'public' }, schema: { tags: ['payments'], summary: 'Stripe events (signed by Stripe)', response: { 200: stripeWebhookAckSchema } } }, async (req) => {
      const signature = req.headers['stripe-signature'];
      return payments.handleWebhook(req.body as Buffer, typeof signature === 'string' ? signature : undefined);
    });
  });
};
