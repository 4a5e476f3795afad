import type {
  AccountSession,
  AccountSummary,
  ChangePasswordBody,
  DeleteAccountBody,
  ExportEntry,
  ExportStatus,
  ResetPasswordBody,
  SessionsEnded,
} from '../../../shared/account.schema.js';
import { api, apiPost } from '../../lib/api';

export const accountKeys = {
  summary: ['account'] as const,
  sessions: ['account', 'sessions'] as const,
  exports: ['account', 'exports'] as const,
};

type Message = { message: string };

export const accountApi = {
  summary: () => api<AccountSummary>('/api/account'),
  sessions: async () => (await api<{ sessions: AccountSession[] }>('/api/account/sessions')).sessions,
  endSession: (id: string) => api(`/api/account/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  endOthers: () => apiPost<SessionsEnded>('/api/account/sessions/end-others'),
  changePassword: (body: ChangePasswordBody) => apiPost<SessionsEnded>('/api/account/password', body),
  startExport: () => apiPost<ExportStatus>('/api/account/exports'),
  exports: async () => (await api<{ exports: ExportEntry[] }>('/api/account/exports')).exports,
  deleteAccount: (body: DeleteAccountBody) => apiPost<Message>('/api/account/delete', body),
  resendVerification: () => apiPost<Message>('/api/account/verification'),
  forgotPassword: (email: string) => apiPost<Message>('/api/auth/forgot-password', { email }),
  resetPassword: (body: ResetPasswordBody) => apiPost<Message>('/api/auth/reset-password', body),
  verifyEmail: (token: string) => apiPost<Message>('/api/auth/verify-email', { token }),
};
