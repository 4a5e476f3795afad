import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectDashboard, newAccount, signUp } from './helpers';
import { adminApi, openAsAdmin, screens, setRole, updatePricing } from './admin-helpers';

const SUCCESS = 'All pricing, discount, and plan energy settings updated successfully!';

/** Back to the seeded prices, whatever ran before or fails here. */
async function resetPrices() {
  const api = await adminApi();
  await updatePricing(api, {
    pricing_updates: { 'image-restore': 1, 'fal-upscaler': 2 },
    tool_discounts: { 'image-restore': 0, 'fal-upscaler': 0 },
    plan_energy_updates: { price_pixelrush_trial: { energy_amount: 7, bonus_energy: 0 } },
  });
  await api.dispose();
}

test.beforeAll(async () => {
  fs.mkdirSync('test-results/screens', { recursive: true });
  await resetPrices();
});
test.afterAll(resetPrices);

async function openAdminDashboard(page: Page) {
  await openAsAdmin(page);
  await page.getByRole('button', { name: 'Admin Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 2 })).toBeVisible();
  await expect(page.getByTestId('tool-image-restore')).toBeVisible();
}

test('an admin changes a price and a discount; an open user dashboard shows the new cost live', async ({ page, browser }) => {
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  try {
    await signUp(userPage, newAccount({ name: 'Live Watcher' }));
    const userCard = userPage.getByRole('button', { name: 'Image Restore', exact: true });
    await expect(userCard).toContainText('1 ENERGY');

    await openAdminDashboard(page);
    const card = page.getByTestId('tool-image-restore');
    await expect(card).toContainText('Image Restore');
    await expect(card).toContainText('Repair damaged, old or corrupted images');
    const base = card.getByLabel('Base cost (ENERGY)');
    await expect(base).toHaveValue('1');

    // An empty base cost counts as 0.
    await base.fill('');
    await expect(card.getByTestId('effective-cost')).toContainText('0 ENERGY');
    await base.fill('10');
    await expect(card.getByTestId('effective-cost')).toContainText('10 ENERGY');

    // Discount slider, by keyboard: 4 steps of 5 = 20% -> floor(10 x 80 / 100) = 8.
    const slider = card.getByRole('slider', { name: 'Discount for Image Restore' });
    await slider.focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await expect(slider).toHaveAttribute('aria-valuenow', '20');
    await expect(card.getByTestId('discount-value')).toHaveText('20% off');
    await expect(card.getByTestId('effective-cost')).toContainText('8 ENERGY');
    await expect(page.getByText('2 unsaved changes')).toBeVisible();

    // Only what changed is sent.
    const sent = page.waitForRequest('**/functions/v1/admin-update-pricing');
    await page.getByRole('button', { name: 'Save All Changes' }).click();
    expect((await sent).postDataJSON()).toEqual({
      pricing_updates: { 'image-restore': 10 },
      tool_discounts: { 'image-restore': 20 },
      plan_energy_updates: {},
    });
    await expect(page.getByRole('status').filter({ hasText: SUCCESS }).first()).toBeVisible();
    await expect(page.getByText('No unsaved changes')).toBeVisible();

    // The user's open dashboard follows without a reload, within 2 seconds.
    await expect(userCard).toContainText('8 ENERGY', { timeout: 2_000 });

    // The change history names who changed what, old -> new.
    await page.getByRole('tab', { name: 'Change history' }).click();
    const entry = page.getByTestId('audit-entry').first();
    await expect(entry).toContainText('Image Restore');
    await expect(entry).toContainText('Base cost');
    await expect(entry).toContainText('10');
    await expect(entry).toContainText('20%');
    await expect(entry).toContainText('admin@e2e.test');
    await entry.scrollIntoViewIfNeeded();
    await screens(page, 'admin-history', { fullPage: false });
  } finally {
    await userContext.close();
  }
});

test('plan energy: total follows the inputs; a saved bonus reaches the purchase dialog', async ({ page, browser }) => {
  await openAdminDashboard(page);
  const trial = page.getByTestId('plan-price_pixelrush_trial');
  await expect(trial).toContainText('Trial');
  await expect(trial).toContainText('$1.00');
  await expect(trial.getByTestId('plan-total')).toHaveText('7 ENERGY');
  await trial.getByLabel('Bonus energy').fill('3');
  await expect(trial.getByTestId('plan-total')).toHaveText('10 ENERGY');

  // A non-whole number is refused before anything is sent.
  const starter = page.getByTestId('plan-price_pixelrush_starter');
  await starter.getByLabel('Energy amount').fill('');
  await expect(starter.getByText('Whole number, 0 or more').first()).toBeVisible();
  await page.getByRole('button', { name: 'Save All Changes' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Fix the highlighted plan values' })).toBeVisible();
  await starter.getByLabel('Energy amount').fill('50');

  await page.getByRole('button', { name: 'Save All Changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: SUCCESS }).first()).toBeVisible();

  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  try {
    await signUp(userPage, newAccount());
    await userPage.getByRole('button', { name: 'Buy ENERGY' }).click();
    const trialBundle = userPage.getByTestId('bundle-trial');
    await expect(trialBundle).toContainText('+3 bonus');
    await expect(trialBundle).toContainText('10 ENERGY');
  } finally {
    await userContext.close();
  }
});

test('platform summary, Refresh, and the account lookup grants ENERGY', async ({ page, browser }) => {
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  const account = newAccount({ name: 'Granted Person' });
  try {
    await signUp(userPage, account);
    await openAdminDashboard(page);
    const summary = page.getByTestId('platform-summary');
    await expect(summary).toContainText('Accounts');
    await expect(summary).toContainText('ENERGY sold');
    await expect(summary).toContainText('Revenue');
    const refreshed = page.waitForResponse('**/api/admin/summary');
    await page.getByRole('button', { name: 'Refresh platform summary' }).click();
    expect((await refreshed).ok()).toBeTruthy();

    await page.getByLabel('Search accounts by e-mail or name').fill(account.email);
    const row = page.getByTestId('admin-user').filter({ hasText: account.email });
    await expect(row).toHaveCount(1);
    await row.getByLabel('Grant ENERGY').fill('25');
    await row.getByRole('button', { name: 'Grant' }).click();
    await expect(page.getByText(`Granted 25 ENERGY to ${account.email}`)).toBeVisible();
    // The user's balance follows live.
    await expect(userPage.getByTestId('energy-balance')).toHaveText('25');
    await screens(page, 'admin-dashboard');
  } finally {
    await userContext.close();
  }
});

test('a VIP sees FREE (VIP) and no Buy More', async ({ page }) => {
  const vip = newAccount({ name: 'Very Important' });
  await signUp(page, vip);
  await expect(page.getByRole('button', { name: 'Buy More' })).toBeVisible();
  const api = await adminApi();
  await setRole(api, vip.email, 'vip');
  await api.dispose();
  await page.reload();
  await expectDashboard(page);
  // Five tools and Batch Processing.
  await expect(page.getByText('FREE (VIP)')).toHaveCount(6);
  await expect(page.getByRole('button', { name: 'Buy More' })).toHaveCount(0);
  await expect(page.getByText('VIP access - unlimited usage')).toBeVisible();
  await expect(page.getByText('Admin Controls')).toHaveCount(0);
});

test('non-admins never see the Admin Dashboard', async ({ page }) => {
  await signUp(page, newAccount());
  await expect(page.getByText('Admin Controls')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Admin Dashboard' })).toHaveCount(0);
  await page.goto('/dashboard?view=admin');
  await expectDashboard(page);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveCount(0);
  expect((await page.request.get('/api/admin/summary')).status()).toBe(403);
  expect((await page.request.post('/functions/v1/admin-update-pricing', { data: { pricing_updates: { upscaler: 0 } } })).status()).toBe(403);
});

test('load and save errors use the spec words', async ({ page }) => {
  await page.route('**/api/pricing', (route) => route.fulfill({ status: 500, json: { error: 'pricing table offline', code: 'internal' } }));
  await page.route('**/api/plans?all=1', (route) => route.fulfill({ status: 500, json: { error: 'plans offline', code: 'internal' } }));
  await openAsAdmin(page);
  await page.getByRole('button', { name: 'Admin Dashboard' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to load pricing data: pricing table offline' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to load plan data: plans offline' })).toBeVisible();

  await page.unroute('**/api/pricing');
  await page.route('**/api/pricing', (route) => route.fulfill({ json: [] }));
  await page.getByRole('alert').filter({ hasText: 'Failed to load pricing data' }).getByRole('button', { name: 'Try Again' }).click();
  const toolsPanel = page.getByRole('region', { name: 'Tool pricing' });
  await expect(toolsPanel.getByText('No Tools Found')).toBeVisible();
  await screens(page, 'admin-errors');

  await page.unroute('**/api/pricing');
  await page.unroute('**/api/plans?all=1');
  await toolsPanel.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByTestId('tool-fal-upscaler')).toBeVisible();
  // Only the tools users can run are priced here (the unused basic upscaler row is not).
  await expect(page.getByTestId('tool-upscaler')).toHaveCount(0);
  await expect(toolsPanel.locator('[data-testid^="tool-"]')).toHaveCount(5);
  await page.getByRole('region', { name: 'Energy plans' }).getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByTestId('plan-price_pixelrush_starter')).toBeVisible();

  await page.route('**/functions/v1/admin-update-pricing', (route) => route.fulfill({ status: 500, body: '' }));
  await page.getByTestId('tool-fal-upscaler').getByLabel('Base cost (ENERGY)').fill('3');
  await page.getByRole('button', { name: 'Save All Changes' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /^Failed to update pricing$/ })).toBeVisible();

  // The server's more precise words win.
  await page.unroute('**/functions/v1/admin-update-pricing');
  await page.getByTestId('tool-fal-upscaler').getByLabel('Base cost (ENERGY)').fill('100001');
  await page.getByRole('button', { name: 'Save All Changes' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Base cost for fal-upscaler must be a whole number from 0 to 100000' })).toBeVisible();
  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByTestId('tool-fal-upscaler').getByLabel('Base cost (ENERGY)')).toHaveValue('2');
});
