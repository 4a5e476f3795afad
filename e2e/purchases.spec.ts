import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { newAccount, signUp } from './helpers';
import { adminApi, openAsAdmin, payWithTestCard, screens } from './admin-helpers';
import { expectAccessible } from './axe';
import sharp from 'sharp';
import { owedMessages } from '../src/shared/energy.messages';

test.beforeAll(() => fs.mkdirSync('test-results/screens', { recursive: true }));

async function buyStarter(page: Page) {
  await page.getByRole('button', { name: 'Buy ENERGY' }).click();
  await page.getByRole('dialog', { name: 'Purchase ENERGY' }).getByTestId('bundle-starter').click();
  await payWithTestCard(page);
  await page.getByRole('button', { name: 'Go to Dashboard' }).click();
  await page.waitForURL(/\/dashboard/);
}

test('a buyer sees the purchase and its receipt in Account; the admin refunds it and the balance drops', async ({ page, browser }) => {
  const account = newAccount({ name: 'Refund Customer' });
  await signUp(page, account);
  await buyStarter(page);
  const dialog = page.getByRole('dialog', { name: 'Purchase Successful!' });
  if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Start Creating' }).click();
  const balance = Number(await page.getByTestId('energy-balance').textContent());
  expect(balance).toBeGreaterThan(0);

  await page.goto('/dashboard/account');
  const row = page.getByTestId('purchase-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Starter bundle');
  await expect(row).toContainText('$10.00');
  await expect(row).toContainText('Paid');
  await expectAccessible(page, 'account-purchases');
  await screens(page, 'account-purchases');

  const [receipt] = await Promise.all([page.context().waitForEvent('page'), row.getByRole('link', { name: /Receipt/ }).click()]);
  await receipt.waitForLoadState();
  await expect(receipt.getByRole('heading', { name: /receipt/i })).toBeVisible();
  await expect(receipt.getByText('$10.00')).toBeVisible();
  await expectAccessible(receipt, 'receipt');
  await screens(receipt, 'receipt');
  await receipt.close();

  // The admin finds the purchase by the buyer's e-mail and refunds half.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await openAsAdmin(adminPage);
  await adminPage.getByRole('button', { name: 'Admin Dashboard' }).first().click();
  await adminPage.getByRole('tab', { name: 'Purchases' }).click();
  await adminPage.getByLabel('Search purchases by e-mail or purchase id').fill(account.email);
  const found = adminPage.getByTestId('admin-purchase-row');
  await expect(found).toHaveCount(1);
  await expect(found).toContainText(account.email);
  await expectAccessible(adminPage, 'admin-purchases');
  await screens(adminPage, 'admin-purchases');
  await found.click();
  await expect(adminPage.getByTestId('purchase-entries')).toContainText('Purchased Starter bundle');
  await adminPage.getByLabel(/Amount to refund/).fill('5');
  await adminPage.getByRole('button', { name: /^Refund \$5\.00/ }).click();
  await expect(adminPage.getByTestId('purchase-entries')).toContainText('ENERGY taken back');
  await expectAccessible(adminPage, 'admin-purchase-detail');
  await screens(adminPage, 'admin-purchase-detail');
  await adminContext.close();

  await page.goto('/dashboard/account');
  await expect(page.getByTestId('purchase-row')).toContainText('Refunded');
  await expect(page.getByTestId('purchase-row')).toContainText('$5.00 refunded');
  await page.goto('/dashboard');
  await expect(page.getByTestId('energy-balance')).toHaveText(String(balance - Math.floor(balance / 2)));
});

test('ENERGY owed after a refund of what was spent: the dashboard says why and what to do', async ({ page }) => {
  const account = newAccount({ name: 'Owing Customer' });
  await signUp(page, account);
  await buyStarter(page);
  const done = page.getByRole('dialog', { name: 'Purchase Successful!' });
  if (await done.isVisible()) await done.getByRole('button', { name: 'Start Creating' }).click();
  // Spend some of it on a real run (charged when it starts), and wait for it to end.
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 20 } } }).png().toBuffer();
  const up = await page.request.post('/api/library/uploads?kind=image', { multipart: { file: { name: 'spend.png', mimeType: 'image/png', buffer: png } } });
  expect(up.status(), await up.text()).toBe(201);
  const run = await page.request.post('/functions/v1/fal-upscaler', { data: { image_url: (await up.json()).id }, headers: { prefer: 'respond-async' } });
  expect(run.status(), await run.text()).toBe(202);
  const jobId = (await run.json()).job_id as string;
  await expect.poll(async () => (await (await page.request.get(`/api/jobs/${jobId}`)).json()).status, { timeout: 120_000 }).toBe('succeeded');
  const spent = ((await (await page.request.get(`/api/jobs/${jobId}`)).json()) as { cost: number }).cost;
  expect(spent).toBeGreaterThan(0);

  const api = await adminApi();
  const list = await (await api.get(`/api/admin/purchases?query=${encodeURIComponent(account.email)}`)).json();
  const refund = await api.post(`/api/admin/purchases/${list.items[0].id}/refund`, { data: {} });
  expect(refund.ok(), await refund.text()).toBeTruthy();
  await api.dispose();

  await page.goto('/dashboard');
  await expect(page.getByTestId('energy-balance')).toHaveText('0');
  await expect(page.getByTestId('energy-owed')).toHaveText(owedMessages.blocked(spent));
  await expectAccessible(page, 'dashboard-owed');
  await screens(page, 'dashboard-owed', { fullPage: false });
});
