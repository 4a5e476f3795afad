import sharp from 'sharp';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { adminApi, findUserId, openAsAdmin, screens } from './admin-helpers';
import { expectAccessible } from './axe';
import { newAccount } from './helpers';

/**
 * Admin > Jobs: the operator finds a failed run by filtering, reads why it failed, and retries it;
 * the retry is in the change history.
 */
const baseURL = () => process.env.E2E_BASE_URL || `http://127.0.0.1:${process.env.E2E_PORT || '3100'}`;

test.use({ viewport: { width: 1366, height: 900 } });

let admin: APIRequestContext;
test.beforeAll(async () => {
  admin = await adminApi();
});
test.afterAll(async () => {
  await admin.dispose();
});

/** A signed-in API client for a new user with ENERGY, and that user's e-mail. */
async function userWithEnergy(energy: number): Promise<{ api: APIRequestContext; email: string }> {
  const account = newAccount({ email: `jobs-${Date.now()}@e2e.test` });
  const api = await playwrightRequest.newContext({ baseURL: baseURL() });
  const res = await api.post('/api/auth/sign-up/email', { data: { name: account.name, email: account.email, password: account.password } });
  expect(res.ok(), await res.text()).toBeTruthy();
  const grant = await admin.post(`/api/admin/users/${await findUserId(admin, account.email)}/grant`, { data: { amount: energy } });
  expect(grant.ok(), await grant.text()).toBeTruthy();
  return { api, email: account.email };
}

async function openJobs(page: Page) {
  await openAsAdmin(page);
  await page.getByRole('button', { name: 'Admin Dashboard' }).click();
  await page.getByRole('tab', { name: 'Jobs' }).click();
}

test('the jobs view filters to a failure, shows why it failed, and retries it (audited)', async ({ page }) => {
  const { api, email } = await userWithEnergy(20);
  // A 1500 px image upscaled 8x would be 12000 px, more than the upscaler makes: the run is charged,
  // fails when the provider reads the image, and is refunded.
  const big = await sharp({ create: { width: 1500, height: 1500, channels: 3, background: { r: 20, g: 120, b: 90 } } }).png().toBuffer();
  const upload = await api.post('/api/library/uploads?kind=image', { multipart: { file: { name: 'big.png', mimeType: 'image/png', buffer: big } } });
  expect(upload.ok(), await upload.text()).toBeTruthy();
  const { id } = (await upload.json()) as { id: string };
  const run = await api.post('/functions/v1/fal-upscaler', { data: { image_url: id, scale: 8 } });
  expect(run.status(), await run.text()).toBe(422);
  await api.dispose();

  await openJobs(page);
  const jobs = page.getByRole('list', { name: 'Jobs' });
  await page.getByLabel('User').fill(email);
  await expect(jobs.getByTestId('admin-job')).toHaveCount(1);
  await page.getByLabel('Status').selectOption('succeeded');
  await expect(page.getByText('No jobs match these filters.')).toBeVisible();
  await page.getByLabel('Status').selectOption('failed');
  const failed = jobs.getByTestId('admin-job');
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText('Failed');
  await expect(failed).toContainText(email);
  await expect(failed.getByTestId('admin-job-error')).toContainText('provider_refused');
  await expect(failed.getByTestId('admin-job-error')).toContainText('the upscaler makes images up to');
  await expectAccessible(page, 'admin jobs filtered to a failure');
  await screens(page, 'admin-jobs-failure');

  page.once('dialog', (dialog) => void dialog.accept());
  await failed.getByRole('button', { name: /^Retry / }).click();
  await expect(page.getByText(`Image Upscaler for ${email} runs again`)).toBeVisible();

  // The retry is a new run of the same user (it fails again: the image is still too large for 8x).
  await page.getByLabel('Status').selectOption('');
  await expect(jobs.getByTestId('admin-job')).toHaveCount(2, { timeout: 30_000 });

  await page.getByRole('tab', { name: 'Change history' }).click();
  await expect(page.getByTestId('audit-entry').filter({ hasText: 'Job retried' }).first()).toBeVisible();
  await screens(page, 'admin-jobs-audit');
});

test('an empty jobs view says so and offers to clear the filters', async ({ page }) => {
  await openJobs(page);
  await page.getByLabel('User').fill('nobody-at-all@nowhere.invalid');
  await expect(page.getByText('No jobs match these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByLabel('User')).toHaveValue('');
  await expect(page.getByLabel('Started')).toHaveValue('all');
  await expectAccessible(page, 'admin jobs empty filter');
});

test('the dashboard charts ENERGY sold vs spent and runs and failures per tool, as pictures and as numbers', async ({ page }) => {
  const { api } = await userWithEnergy(20);
  const small = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 90, b: 30 } } }).png().toBuffer();
  const upload = await api.post('/api/library/uploads?kind=image', { multipart: { file: { name: 'small.png', mimeType: 'image/png', buffer: small } } });
  expect(upload.ok(), await upload.text()).toBeTruthy();
  const run = await api.post('/functions/v1/fal-upscaler', { data: { image_url: ((await upload.json()) as { id: string }).id, scale: 2 } });
  expect(run.status(), await run.text()).toBe(200);
  await api.dispose();

  await openAsAdmin(page);
  await page.getByRole('button', { name: 'Admin Dashboard' }).click();
  const energy = page.getByRole('region', { name: 'ENERGY sold vs spent' });
  await expect(energy.getByRole('img', { name: /^ENERGY per day over the last 30 days: [\d,]+ sold, [1-9][\d,]* spent\.$/ })).toBeVisible();
  await expect(energy.locator('canvas')).toHaveCount(1);

  const runs = page.getByRole('region', { name: 'Runs and failures per tool' });
  await runs.getByLabel('Tool', { exact: true }).selectOption('fal-upscaler');
  await expect(runs.getByRole('img', { name: /^Runs of AI Image Upscaler per day over the last 30 days: [1-9][\d,]* runs, [\d,]+ failed\.$/ })).toBeVisible();
  await runs.getByText('Show the numbers').click();
  const today = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const row = runs.getByRole('row', { name: new RegExp(`^${today} `) });
  await expect(row.getByRole('cell').first()).not.toHaveText('0');

  await energy.getByLabel('Period', { exact: true }).selectOption('7');
  await expect(energy.getByRole('img', { name: /over the last 7 days/ })).toBeVisible();
  await expect(runs.getByRole('row')).toHaveCount(8);
  await expectAccessible(page, 'admin charts');
  await runs.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/admin-charts-desktop.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  // The charts follow the screen's width: nothing is wider than a phone once they have redrawn.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect((await runs.boundingBox())!.width).toBeLessThanOrEqual(390);
  await energy.screenshot({ path: 'test-results/screens/admin-charts-energy-phone.png' });
  await runs.screenshot({ path: 'test-results/screens/admin-charts-runs-phone.png' });
  await expectAccessible(page, 'admin charts phone');
});
