import type { ChangePasswordBody, DeleteAccountBody, ResetPasswordBody } from '../../../shared/account.schema.js';
import { call, client } from '../../lib/api';

export const accountKeys = {
  summary: ['account'] as const,
  sessions: ['account', 'sessions'] as const,
  exports: ['account', 'exports'] as const,
};

export const accountApi = {
  summary: () => call(client.GET('/api/account')),
  sessions: async () => (await call(client.GET('/api/account/sessions'))).sessions,
  endSession: (id: string) => call(client.DELETE('/api/account/sessions/{id}', { params: { path: { id } } })),
  endOthers: () => call(client.POST('/api/account/sessions/end-others')),
  changePassword: (body: ChangePasswordBody) => call(client.POST('/api/account/password', { body })),
  startExport: () => call(client.POST('/api/account/exports')),
  exports: async () => (await call(client.GET('/api/account/exports'))).exports,
  deleteAccount: (body: DeleteAccountBody) => call(client.POST('/api/account/delete', { body })),
  resendVerification: () => call(client.POST('/api/account/verification')),
  forgotPassword: (email: string) => call(client.POST('/api/auth/forgot-password', { body: { email } })),
  resetPassword: (body: ResetPasswordBody) => call(client.POST('/api/auth/reset-password', { body })),
  verifyEmail: (token: string) => call(client.POST('/api/auth/verify-email', { body: { token } })),
};
