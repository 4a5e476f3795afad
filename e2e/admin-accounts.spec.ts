import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectLanding, fillSignIn, formError, newAccount, signUp } from './helpers';
import { adminApi, openAsAdmin, screens } from './admin-helpers';
import { expectAccessible } from './axe';
import { suspensionMessages } from '../src/shared/account.messages';

test.beforeAll(() => fs.mkdirSync('test-results/screens', { recursive: true }));

test('the admin sets a welcome grant; a new account starts with it, once', async ({ page, browser }) => {
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  try {
    await openAsAdmin(adminPage);
    await adminPage.getByRole('button', { name: 'Admin Dashboard' }).first().click();
    const field = adminPage.getByLabel('Welcome grant (ENERGY)');
    await expect(field).toHaveValue('0');
    await field.fill('-3');
    await adminPage.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(adminPage.getByRole('alert').filter({ hasText: 'The welcome grant must be a whole number' })).toBeVisible();
    await field.fill('15');
    await adminPage.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(adminPage.getByText('New accounts get 15 ENERGY once')).toBeVisible();
    await expectAccessible(adminPage, 'admin-welcome-grant');
    await screens(adminPage, 'admin-welcome-grant', { fullPage: false });

    await signUp(page, newAccount({ name: 'Welcome Newcomer' }));
    await expect(page.getByTestId('energy-balance')).toHaveText('15');
  } finally {
    // Other journeys expect new accounts to start at 0.
    const api = await adminApi();
    await api.put('/api/admin/welcome-grant', { data: { welcome_energy: 0 } });
    await api.dispose();
    await adminContext.close();
  }
});

test('the admin suspends an account: its open dashboard signs out, and sign-in says why', async ({ page, browser }) => {
  const account = newAccount({ name: 'Suspended Person' });
  await signUp(page, account);

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await openAsAdmin(adminPage);
  await adminPage.getByRole('button', { name: 'Admin Dashboard' }).first().click();
  await adminPage.getByRole('tab', { name: 'Accounts' }).click();
  await adminPage.getByLabel('Search accounts by e-mail or name').fill(account.email);
  const row = adminPage.getByTestId('admin-user').filter({ hasText: account.email });
  await expect(row).toHaveCount(1);
  adminPage.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: 'Suspend' }).click();
  await expect(row.getByText('Suspended', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Reinstate' })).toBeVisible();
  await expectAccessible(adminPage, 'admin-user-suspended');
  await row.scrollIntoViewIfNeeded();
  await screens(adminPage, 'admin-user-suspended', { fullPage: false });
  // The account row itself at phone width (the page screenshot scrolls elsewhere there).
  await adminPage.setViewportSize({ width: 390, height: 844 });
  await row.scrollIntoViewIfNeeded();
  await row.screenshot({ path: 'test-results/screens/admin-user-suspended-row-phone.png' });
  await adminPage.setViewportSize({ width: 1280, height: 720 });

  // The person's open dashboard hears of it and signs out; the sign-in form says why.
  await expectLanding(page);
  await expect(formError(page)).toContainText(suspensionMessages.signIn);

  // Signing in again: the form says the account is suspended.
  await page.goto('/');
  await fillSignIn(page, account);
  await expect(formError(page)).toContainText(suspensionMessages.signIn);
  await expectAccessible(page, 'sign-in-suspended');
  await screens(page, 'sign-in-suspended', { fullPage: false });

  // Reinstated: sign-in works again.
  await row.getByRole('button', { name: 'Reinstate' }).click();
  await expect(row.getByText('Suspended', { exact: true })).toHaveCount(0);
  await adminContext.close();
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'AI Tools', exact: true })).toBeVisible();
});
