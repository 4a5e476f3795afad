import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountSession,
  accountSummary,
  changePasswordBody,
  deleteAccountBody,
  exportEntry,
  exportStatus,
  forgotPasswordBody,
  messageResponse,
  resetPasswordBody,
  sessionsEndedResponse,
  verifyEmailBody,
} from '../../../shared/account.schema.js';
import { okResponse } from '../../../shared/auth.schema.js';
import { apiError } from '../../../shared/api-error.js';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { accountMessages } from '../../../shared/account.messages.js';
import type { AppContext } from '../../app-context.js';
import { clearSessionCookie, requireUser } from '../../http/auth-context.js';
import { fileAnswer } from '../../http/openapi.js';

const sessionParams = z.object({ id: z.string().max(128) });

export const accountRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { account, auth } = ctx.services;
  const user = (req: Parameters<typeof requireUser>[0]) => requireUser(req, auth);
  // Reset mails still being written when the app closes are finished first.
  app.addHook('onClose', () => account.settled());

  // Signed-out flows: the reset link and the confirmation link.
  r.post(
    '/api/auth/forgot-password',
    { config: { auth: 'public' }, schema: { body: forgotPasswordBody, response: { 200: messageResponse }, tags: ['account'], summary: 'Mail a password reset link' } },
    async (req) => account.requestPasswordReset(req.body.email ?? '', req.ip),
  );

  r.post(
    '/api/auth/reset-password',
    { config: { auth: 'public' }, schema: { body: resetPasswordBody, response: { 200: messageResponse }, tags: ['account'], summary: 'Set a new password with a reset link' } },
    async (req, reply) => {
      const result = await account.resetPassword(req.body.token ?? '', req.body.password ?? '', req.body.confirmPassword, req.ip);
      // Every session ended, this browser's included.
      clearSessionCookie(reply);
      return result;
    },
  );

  r.post(
    '/api/auth/verify-email',
    { config: { auth: 'public' }, schema: { body: verifyEmailBody, response: { 200: messageResponse }, tags: ['account'], summary: 'Confirm an e-mail address with its link' } },
    async (req) => account.verifyEmail(req.body.token ?? ''),
  );

  // The account page.
  r.get('/api/account', { config: { auth: 'user' }, schema: { response: { 200: accountSummary }, tags: ['account'], summary: 'Your account settings' } }, async (req) => {
    const u = await user(req);
    return { email: u.email, full_name: u.fullName, email_verified: u.emailVerified, verification_required: account.verificationRequired };
  });

  r.post(
    '/api/account/password',
    { config: { auth: 'user' }, schema: { body: changePasswordBody, response: { 200: sessionsEndedResponse }, tags: ['account'], summary: 'Change your password' } },
    async (req) => {
      const u = await user(req);
      return account.changePassword(u.id, u.sessionId, req.body);
    },
  );

  r.get(
    '/api/account/sessions',
    { config: { auth: 'user' }, schema: { response: { 200: z.object({ sessions: z.array(accountSession) }) }, tags: ['account'], summary: 'Your signed-in sessions' } },
    async (req) => {
      const u = await user(req);
      return { sessions: await account.listSessions(u.id, u.sessionId) };
    },
  );

  r.delete(
    '/api/account/sessions/:id',
    { config: { auth: 'user' }, schema: { params: sessionParams, response: { 200: okResponse, 404: apiError }, tags: ['account'], summary: 'End one session' } },
    async (req, reply) => {
      const u = await user(req);
      await account.endSession(u.id, req.params.id);
      if (req.params.id === u.sessionId) clearSessionCookie(reply);
      return { ok: true as const };
    },
  );

  r.post(
    '/api/account/sessions/end-others',
    { config: { auth: 'user' }, schema: { response: { 200: sessionsEndedResponse }, tags: ['account'], summary: 'End every other session' } },
    async (req) => {
      const u = await user(req);
      return account.endOtherSessions(u.id, u.sessionId);
    },
  );

  r.post(
    '/api/account/verification',
    { config: { auth: 'user' }, schema: { response: { 200: messageResponse }, tags: ['account'], summary: 'Mail the confirmation link again' } },
    async (req) => {
      const u = await user(req);
      if (account.verificationRequired && !u.emailVerified) await account.sendVerification(u.id);
      return { message: accountMessages.verificationSent };
    },
  );

  // Download my data.
  r.post(
    '/api/account/exports',
    { config: { auth: 'user' }, schema: { response: { 200: exportStatus, 202: exportStatus }, tags: ['account'], summary: 'Prepare a download of your data' } },
    async (req, reply) => {
      const u = await user(req);
      const started = await account.startExport(u.id);
      return reply.status(started.mode === 'job' ? 202 : 200).send(started);
    },
  );

  r.get(
    '/api/account/exports',
    { config: { auth: 'user' }, schema: { response: { 200: z.object({ exports: z.array(exportEntry) }) }, tags: ['account'], summary: 'Your data exports' } },
    async (req) => {
      const u = await user(req);
      return { exports: await account.listExports(u.id) };
    },
  );

  r.get('/api/account/export', { config: { auth: 'user', answers: { 200: fileAnswer('application/zip', 'The ZIP: profile, ledger, runs and library files') } }, schema: { tags: ['account'], summary: 'Download your data as a ZIP' } }, async (req, reply) => {
    const u = await user(req);
    const name = `${PRODUCT_NAME.toLowerCase()}-data-${new Date().toISOString().slice(0, 10)}.zip`;
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'no-store')
      .send(account.exportStream(u.id));
  });

  r.post(
    '/api/account/delete',
    { config: { auth: 'user' }, schema: { body: deleteAccountBody, response: { 200: messageResponse }, tags: ['account'], summary: 'Delete your account' } },
    async (req, reply) => {
      const u = await user(req);
      const result = await account.deleteAccount(u.id, req.body);
      clearSessionCookie(reply);
      return result;
    },
  );
};
