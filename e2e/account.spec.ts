import { expect, test, type Page } from '@playwright/test';
import { expectDashboard, expectLanding, fillSignIn, formError, newAccount, signUp } from './helpers';

/** The newest reset link for an address, read from the dev outbox page. */
async function resetLinkFromOutbox(page: Page, email: string): Promise<string> {
  let href: string | null = null;
  await expect(async () => {
    await page.goto('/dev/outbox');
    const mail = page.locator('article', { hasText: email }).first();
    await expect(mail).toBeVisible({ timeout: 1_000 });
    href = await mail.getByRole('link', { name: /reset-password\?token=/ }).getAttribute('href');
    expect(href).toBeTruthy();
  }).toPass({ timeout: 30_000 });
  return href!;
}

async function openAccount(page: Page) {
  await page.getByRole('button', { name: /account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { name: 'Account', exact: true })).toBeVisible();
}

test.describe('account self-service', () => {
  test('forgot password via the dev outbox, then sign in with the new password', async ({ page }) => {
    const account = newAccount({ name: 'Forgetful Fay' });
    await signUp(page, account);
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expectLanding(page);

    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toContainText('If an account exists for that email');

    const link = await resetLinkFromOutbox(page, account.email);
    expect(new URL(link).pathname).toBe('/reset-password');
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('brand-new-pass');
    await page.getByLabel('Confirm new password').fill('brand-new-pass');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('status')).toContainText('Your password has been changed');

    // The link works once.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('another-pass');
    await page.getByLabel('Confirm new password').fill('another-pass');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(formError(page)).toContainText('This reset link is invalid or has expired');

    await page.goto('/');
    await expectLanding(page);
    await fillSignIn(page, { email: account.email, password: account.password });
    await expect(formError(page)).toHaveText('Invalid email or password');
    await page.getByLabel('Password', { exact: true }).fill('brand-new-pass');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expectDashboard(page);
  });

  test('the account page: change password, sessions, download my data', async ({ page, browser }) => {
    const account = newAccount({ name: 'Careful Cora' });
    await signUp(page, account);
    // A second device.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto('/');
    await fillSignIn(otherPage, account);
    await expectDashboard(otherPage);

    await openAccount(page);
    const rows = page.getByTestId('session-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'This device' })).toHaveCount(1);
    await expect(rows.first()).toContainText(/on Linux|Chrom/);

    // Download my data: a ZIP streamed straight away.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download my data' }).click();
    expect((await download).suggestedFilename()).toMatch(/^pixelrush-data-\d{4}-\d{2}-\d{2}\.zip$/);

    await page.getByLabel('Current password').fill(account.password);
    await page.getByLabel('New password', { exact: true }).fill('changed-pass-1');
    await page.getByLabel('Confirm new password').fill('changed-pass-1');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Password changed. Your other devices were signed out.')).toBeVisible();
    await expect(rows).toHaveCount(1);

    // The other device is signed out on its next request.
    await otherPage.reload();
    await expectLanding(otherPage);
    await other.close();
  });

  test('delete account, then signing in fails', async ({ page }) => {
    const account = newAccount({ name: 'Leaving Lee' });
    await signUp(page, account);
    await openAccount(page);
    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Password').fill(account.password);
    await dialog.getByLabel('Type DELETE to confirm').fill('delete');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Type DELETE to confirm');
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expectLanding(page);

    await fillSignIn(page, account);
    await expect(formError(page)).toHaveText('Invalid email or password');
  });
});
