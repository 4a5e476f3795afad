import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin, requireUser } from '../../http/auth-context.js';
import type { AppContext } from '../../app-context.js';
import { inviteMessages } from '../../../shared/invites.messages.js';
import { REFERRALS_SHOWN } from '../../../shared/constants.js';
import { cursorParam } from '../../core/cursor.js';
import { adminInviteSchema, adminReferralSchema, inviteSchema, referralSchema } from '../../../shared/invites.js';
import { countedPageSchema, pageSchema } from '../../../shared/page.schema.js';

const generateBody = z
  .object({ max_uses: z.unknown().optional(), expires_in_days: z.unknown().optional() })
  .default({});
const idParams = z.object({ id: z.string().max(64) });
const inviteAnswer = z.object({ invite: inviteSchema, message: z.string() });
const page = (defaultLimit: number) => ({ limit: z.coerce.number().int().min(1).max(100).default(defaultLimit), cursor: cursorParam });
const myInvitesQuery = z.object(page(100));
const myReferralsQuery = z.object(page(REFERRALS_SHOWN));
const adminInvitesQuery = z.object({
  status: z.enum(['Active', 'Expired', 'Exhausted', 'Inactive']).optional(),
  inviter: z.string().max(200).optional(),
  code: z.string().max(50).optional(),
  ...page(25),
});
const adminReferralsQuery = z.object({ email: z.string().max(200).optional(), code: z.string().max(50).optional(), ...page(25) });

export const referralsRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, referrals } = ctx.services;

  r.get('/api/invites', { config: { auth: 'user' }, schema: { querystring: myInvitesQuery, tags: ['referrals'], summary: 'Your invite codes', response: { 200: pageSchema(inviteSchema) } } }, async (req) => {
    const user = await requireUser(req, auth);
    return referrals.listMine(user.id, req.query);
  });

  r.post('/api/invites', { config: { auth: 'user' }, schema: { body: generateBody, tags: ['referrals'], summary: 'Create an invite code', response: { 200: inviteAnswer } } }, async (req) => {
    const user = await requireUser(req, auth);
    const invite = await referrals.generate(user.id, req.body ?? {});
    return { invite, message: inviteMessages.generated(invite.invite_code) };
  });

  r.post('/api/invites/:id/deactivate', { config: { auth: 'user' }, schema: { params: idParams, tags: ['referrals'], summary: 'Deactivate an invite code', response: { 200: inviteAnswer } } }, async (req) => {
    const user = await requireUser(req, auth);
    const invite = await referrals.deactivate(user.id, req.params.id);
    return { invite, message: inviteMessages.deactivated };
  });

  r.get('/api/referrals', { config: { auth: 'user' }, schema: { querystring: myReferralsQuery, tags: ['referrals'], summary: 'People who joined with your codes', response: { 200: countedPageSchema(referralSchema) } } }, async (req) => {
    const user = await requireUser(req, auth);
    return referrals.listMyReferrals(user.id, req.query);
  });

  r.get('/api/admin/invites', { config: { auth: 'admin' }, schema: { querystring: adminInvitesQuery, tags: ['admin'], summary: 'Every invite code', response: { 200: countedPageSchema(adminInviteSchema) } } }, async (req) => {
    await requireAdmin(req, auth);
    const { status, inviter, code, ...page } = req.query;
    return referrals.listAllInvites({ status, inviterEmail: inviter, code }, page);
  });

  r.get('/api/admin/referrals', { config: { auth: 'admin' }, schema: { querystring: adminReferralsQuery, tags: ['admin'], summary: 'Every referral', response: { 200: countedPageSchema(adminReferralSchema) } } }, async (req) => {
    await requireAdmin(req, auth);
    const { email, code, ...page } = req.query;
    return referrals.listAllReferrals({ email, code }, page);
  });
};
