import type { InviteStatus } from '../../../shared/invites.js';

export const referralKeys = {
  all: ['referrals'] as const,
  invites: ['referrals', 'invites'] as const,
  referrals: ['referrals', 'mine'] as const,
  adminInvites: (filter: Record<string, string | number>) => ['referrals', 'admin', 'invites', filter] as const,
  adminReferrals: (filter: Record<string, string | number>) => ['referrals', 'admin', 'referrals', filter] as const,
};

export const STATUS_TONE: Record<InviteStatus, 'emerald' | 'amber' | 'red' | 'zinc'> = {
  Active: 'emerald',
  Exhausted: 'amber',
  Expired: 'red',
  Inactive: 'zinc',
};

const dateFmt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFmt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateFmt.format(d);
}

export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTimeFmt.format(d);
}

/** Copies text: the async Clipboard API, else the old execCommand way (http pages, older browsers). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall back below */
  }
  try {
    const focused = document.activeElement as HTMLElement | null;
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.top = '-1000px';
    area.style.opacity = '0';
    document.body.appendChild(area);
    const selection = document.getSelection();
    const previous = selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : null;
    area.select();
    area.setSelectionRange(0, text.length);
    const ok = document.execCommand('copy');
    document.body.removeChild(area);
    focused?.focus({ preventScroll: true });
    if (previous && selection) {
      selection.removeAllRanges();
      selection.addRange(previous);
    }
    return ok;
  } catch {
    return false;
  }
}
