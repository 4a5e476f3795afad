import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectDashboard, formError, newAccount, register, signUp, submitRegisterForm, switchToRegister } from './helpers';
import { adminApi, openAsAdmin, screens, setReferralOnly } from './admin-helpers';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test.beforeAll(async () => {
  fs.mkdirSync('test-results/screens', { recursive: true });
  const api = await adminApi();
  await setReferralOnly(api, false);
  await api.dispose();
});

// Other journeys register accounts: registration is open again whatever happened here.
test.afterAll(async () => {
  const api = await adminApi();
  await setReferralOnly(api, false);
  await api.dispose();
});

async function generateCode(page: Page, opts: { maxUses?: string; days?: string } = {}): Promise<string> {
  if (opts.maxUses !== undefined) await page.getByLabel('Max uses').fill(opts.maxUses);
  if (opts.days !== undefined) await page.getByLabel('Expires in (days)').fill(opts.days);
  await page.getByRole('button', { name: 'Generate Invite Code' }).click();
  const message = page.getByTestId('generated-message');
  await expect(message).toHaveText(/^Generated invite code: [A-Z0-9]{10}$/);
  return (await message.textContent())!.replace('Generated invite code: ', '');
}

const inviteItem = (scope: Page | Locator, code: string) => scope.getByTestId('invite-item').and(scope.locator(`[data-code="${code}"]`));

test('referral-only registration: the admin switches it on, a code lets a visitor in, the inviter sees the referral', async ({ page, browser }) => {
  // Admin Dashboard: switch referral-only on.
  await openAsAdmin(page);
  await page.getByRole('button', { name: 'Admin Dashboard' }).click();
  const mode = page.getByTestId('referral-mode');
  await expect(mode).toHaveText('OPEN REGISTRATION');
  const toggle = page.getByRole('switch', { name: 'Referral-only mode' });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await expect(mode).toHaveText('REFERRAL-ONLY MODE ENABLED');
  await expect(toggle).toHaveAttribute('aria-checked', 'true');

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  try {
    // A visitor without a code cannot register; a wrong code is refused.
    const guest = newAccount({ name: 'Invited Guest' });
    await visitor.goto('/');
    await switchToRegister(visitor);
    await expect(visitor.getByLabel('Invite code')).toBeVisible();
    await submitRegisterForm(visitor, guest);
    await expect(formError(visitor)).toHaveText('Invite code is required to create an account');
    await submitRegisterForm(visitor, { ...guest, inviteCode: 'NOPE2345XY' });
    await expect(formError(visitor)).toHaveText('Invalid or expired invite code');

    // The admin opens Referrals from the Admin Controls card and makes a 1-use code.
    await page.getByRole('button', { name: 'Back to Tools' }).click();
    await expectDashboard(page);
    await page.getByRole('button', { name: 'Referrals', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Referral Management' })).toBeVisible();
    await expect(page.getByLabel('Max uses')).toHaveValue('1');
    await expect(page.getByLabel('Expires in (days)')).toHaveValue('30');
    const code = await generateCode(page);
    expect(code).toMatch(/^[A-Z0-9]{10}$/);
    const mine = page.getByRole('list', { name: 'Invite codes' });
    await expect(mine.getByTestId('invite-item').first()).toHaveAttribute('data-code', code);
    const item = inviteItem(mine, code);
    await expect(item.getByTestId('invite-uses')).toHaveText('0/1');
    await expect(item.getByTestId('invite-status')).toHaveText('Active');

    // Copy: 'Copied!' for two seconds, and the code is on the clipboard.
    const copy = item.getByRole('button', { name: `Copy ${code}` });
    await copy.click();
    const copiedAt = Date.now();
    await expect(copy).toHaveText('Copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await expect(copy).toHaveText('Copy', { timeout: 4_000 });
    expect(Date.now() - copiedAt).toBeGreaterThanOrEqual(1_700);

    // The visitor registers with the code (typed loosely: trimmed and upper-cased).
    await submitRegisterForm(visitor, { ...guest, inviteCode: `  ${code.toLowerCase()} ` });
    await expectDashboard(visitor);

    // The inviter sees the new account, and the code is used up.
    await page.getByRole('button', { name: 'Refresh referrals' }).click();
    const referral = page.getByRole('list', { name: 'Referrals' }).getByTestId('referral-item').filter({ hasText: guest.email });
    await expect(referral).toContainText('Invited Guest');
    await expect(referral).toContainText(code);
    await page.getByRole('button', { name: 'Refresh invite codes' }).click();
    await expect(item.getByTestId('invite-uses')).toHaveText('1/1');
    await expect(item.getByTestId('invite-status')).toHaveText('Exhausted');
    await expect(item.getByRole('button', { name: /Deactivate/ })).toHaveCount(0);

    // Another code, deactivated.
    const second = await generateCode(page, { maxUses: '3', days: '7' });
    const secondItem = inviteItem(mine, second);
    await expect(secondItem.getByTestId('invite-uses')).toHaveText('0/3');
    await secondItem.getByRole('button', { name: `Deactivate ${second}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Deactivate invite code?' });
    await expect(confirm).toContainText(second);
    await confirm.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await expect(page.getByText('Invite code deactivated')).toBeVisible();
    await expect(secondItem.getByTestId('invite-status')).toHaveText('Inactive');
    await expect(secondItem.getByRole('button', { name: /Deactivate/ })).toHaveCount(0);
    await screens(page, 'referrals-admin');

    // Admin lists across the platform, with filters.
    await page.getByRole('tab', { name: 'All invites' }).click();
    await page.getByLabel('Code', { exact: true }).fill(code.slice(0, 6).toLowerCase());
    const all = page.getByRole('list', { name: 'All invite codes' });
    await expect(inviteItem(all, code)).toBeVisible();
    await expect(inviteItem(all, code)).toContainText('admin@e2e.test');
    await page.getByLabel('Status', { exact: true }).selectOption('Active');
    await expect(page.getByText('No invite codes match these filters.')).toBeVisible();
    await page.getByLabel('Status', { exact: true }).selectOption('Exhausted');
    await expect(inviteItem(all, code).getByTestId('invite-status')).toHaveText('Exhausted');
    await screens(page, 'referrals-all-invites');

    await page.getByRole('tab', { name: 'All referrals' }).click();
    await page.getByLabel('E-mail (inviter or new account)').fill(guest.email);
    const allReferrals = page.getByRole('list', { name: 'All referrals' }).getByTestId('referral-item');
    await expect(allReferrals).toHaveCount(1);
    await expect(allReferrals).toContainText('Invited by Site Admin');
    await expect(allReferrals).toContainText(code);

    // Open registration again, from the Admin Dashboard.
    await page.getByRole('button', { name: 'Back to Tools' }).click();
    await page.getByRole('button', { name: 'Admin Dashboard' }).click();
    await page.getByRole('switch', { name: 'Referral-only mode' }).click();
    await expect(page.getByTestId('referral-mode')).toHaveText('OPEN REGISTRATION');

    const later = await browser.newContext();
    try {
      const laterPage = await later.newPage();
      await register(laterPage, newAccount());
    } finally {
      await later.close();
    }
  } finally {
    await visitorContext.close();
  }
});

test('a regular user generates and deactivates their own codes; errors use the spec words', async ({ page }) => {
  await signUp(page, newAccount({ name: 'Regular Inviter' }));
  await page.goto('/dashboard?view=referrals');
  await expect(page.getByRole('heading', { name: 'Referral Management' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'All invites' })).toHaveCount(0);
  await expect(page.getByText('No invite codes yet')).toBeVisible();
  await expect(page.getByText('No referrals yet')).toBeVisible();
  await screens(page, 'referrals-empty');

  // Client-side limits.
  await page.getByLabel('Max uses').fill('0');
  await page.getByRole('button', { name: 'Generate Invite Code' }).click();
  await expect(page.getByRole('alert')).toHaveText('Max uses must be a whole number of at least 1');
  await page.getByLabel('Max uses').fill('2');
  await page.getByLabel('Expires in (days)').fill('0');
  await page.getByRole('button', { name: 'Generate Invite Code' }).click();
  await expect(page.getByRole('alert')).toHaveText('Expiry must be a whole number of days, at least 1');
  await page.getByLabel('Expires in (days)').fill('10');

  const code = await generateCode(page);
  const item = inviteItem(page, code);
  await expect(item.getByTestId('invite-uses')).toHaveText('0/2');
  await expect(item.getByTestId('invite-status')).toHaveText('Active');
  await expect(item).toContainText('Expires');

  // Failures.
  await page.route('**/api/invites', (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 500, body: '' }) : route.fallback(),
  );
  await page.getByRole('button', { name: 'Generate Invite Code' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to generate invite code' })).toBeVisible();
  await page.route('**/api/invites/*/deactivate', (route) => route.fulfill({ status: 500, body: '' }));
  await item.getByRole('button', { name: `Deactivate ${code}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Deactivate', exact: true }).click();
  await expect(page.getByText('Failed to deactivate invite code')).toBeVisible();
  await expect(item.getByTestId('invite-status')).toHaveText('Active');

  await page.unroute('**/api/invites/*/deactivate');
  await item.getByRole('button', { name: `Deactivate ${code}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Deactivate', exact: true }).click();
  await expect(page.getByText('Invite code deactivated')).toBeVisible();
  await expect(item.getByTestId('invite-status')).toHaveText('Inactive');
});

test('my referrals show at most 10, newest first, with the count of all', async ({ page }) => {
  const items = Array.from({ length: 10 }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    referrer_id: 'me',
    referred_id: `u${i}`,
    referred_name: `Friend ${i + 1}`,
    referred_email: `friend${i + 1}@example.com`,
    invite_code: 'ABCDEFGH23',
    created_at: new Date(Date.UTC(2026, 0, 20 - i, 12)).toISOString(),
  }));
  // A server that answers more than asked for is still cut at 10.
  const extra = { ...items[9]!, id: 'extra', referred_name: 'Friend 11', referred_email: 'friend11@example.com' };
  await page.route('**/api/referrals', (route) => route.fulfill({ json: { items: [...items, extra], next_cursor: null, total: 14 } }));
  await signUp(page, newAccount());
  await page.goto('/dashboard?view=referrals');
  const list = page.getByRole('list', { name: 'Referrals' }).getByTestId('referral-item');
  await expect(list).toHaveCount(10);
  await expect(list.first()).toContainText('Friend 1');
  await expect(list.first()).toContainText('friend1@example.com');
  await expect(page.getByTestId('referral-count')).toHaveText('14');
  await expect(page.getByText('The 10 most recent of 14 people who joined with your codes')).toBeVisible();
});
