import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import {
  expectDashboard,
  formError,
  newAccount,
  signUp,
  submitRegisterForm,
  switchToRegister,
} from './helpers';
import { openAsAdmin } from './admin-helpers';
import { UI_ONLY } from './screens';

const SHOTS = 'test-results/screens';
test.beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

const VIEWS: Array<{ card: string; title: string; path: string }> = [
  { card: 'Image Upscaler', title: 'AI Image Upscaler', path: '/dashboard/upscaler' },
  { card: 'Image Editor', title: 'AI Image Editor', path: '/dashboard/editor' },
  { card: 'Image Restore', title: 'AI Image Restore', path: '/dashboard/restore' },
  { card: 'Image to Video', title: 'AI Image to Video', path: '/dashboard/image-to-video' },
  { card: 'Video Upscaler', title: 'AI Video Upscaler', path: '/dashboard/video-upscaler' },
  { card: 'My Images', title: 'Your Images', path: '/dashboard/images' },
  { card: 'My Videos', title: 'Your Videos', path: '/dashboard/videos' },
  { card: 'Batch Processing', title: 'Batch Processing', path: '/dashboard/batch' },
];

const urlOf = (path: string) => new RegExp(`${path.replace(/[/-]/g, '\\$&')}$`);

test('landing page and register errors look right (desktop screenshots)', UI_ONLY, async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: /Rush your images to perfection with AI/ })).toBeVisible();
  await expect(page.getByText('PixelRush').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/landing.png`, fullPage: true });
  await switchToRegister(page);
  await expect(page.getByRole('region', { name: 'Terms of Service text' })).toBeVisible();
  await submitRegisterForm(page, { ...newAccount(), password: '123', confirmPassword: '123' });
  await expect(formError(page)).toHaveText('Password must be at least 6 characters long');
  await page.screenshot({ path: `${SHOTS}/register-error.png`, fullPage: true });
});

test('every card opens its view in place; Back to Tools and Escape return to the grid', async ({ page }) => {
  await signUp(page, newAccount());
  await page.screenshot({ path: `${SHOTS}/dashboard-user.png`, fullPage: true });

  for (const v of VIEWS) {
    await page.getByRole('button', { name: v.card, exact: true }).click();
    await expect(page.getByRole('heading', { name: v.title })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'AI Tools', exact: true })).toHaveCount(0);
    // In place, with the view's own address.
    await expect(page).toHaveURL(urlOf(v.path));
    await page.getByRole('button', { name: 'Back to Tools' }).click();
    await expectDashboard(page);
    // Focus returns to the card that opened the view.
    await expect(page.getByRole('button', { name: v.card, exact: true })).toBeFocused();
  }

  // Escape goes back too.
  await page.getByRole('button', { name: 'Image Editor', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'AI Image Editor' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/view-editor.png`, fullPage: true });
  await page.keyboard.press('Escape');
  await expectDashboard(page);

  // A reload keeps the open view; the browser Back button returns to the grid.
  await page.getByRole('button', { name: 'My Videos', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your Videos' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your Videos' })).toBeVisible();
  await page.goBack();
  await expectDashboard(page);
});

test('deep links: every view opens from its address; Back and Forward walk the views', async ({ page }) => {
  await signUp(page, newAccount());
  for (const v of VIEWS) {
    await page.goto(v.path);
    await expect(page.getByRole('heading', { name: v.title })).toBeVisible();
    await expect(page).toHaveURL(urlOf(v.path));
  }

  // Grid -> upscaler -> (result link) images: Back walks back through them, Forward returns.
  await page.goto('/dashboard');
  await expectDashboard(page);
  await page.getByRole('button', { name: 'Image Upscaler', exact: true }).click();
  await expect(page).toHaveURL(urlOf('/dashboard/upscaler'));
  await page.getByRole('button', { name: 'Back to Tools' }).click();
  await expectDashboard(page);
  await page.goForward();
  await expect(page.getByRole('heading', { name: 'AI Image Upscaler' })).toBeVisible();
  await page.goBack();
  await expectDashboard(page);
  await page.getByRole('button', { name: 'My Images', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your Images' })).toBeVisible();
  await page.goBack();
  await expectDashboard(page);
  await page.goForward();
  await expect(page.getByRole('heading', { name: 'Your Images' })).toBeVisible();
  await expect(page).toHaveURL(urlOf('/dashboard/images'));

  // A view opened in a new tab (no history before it): 'Back to Tools' still reaches the grid.
  const tab = await page.context().newPage();
  await tab.goto('/dashboard/restore');
  await expect(tab.getByRole('heading', { name: 'AI Image Restore' })).toBeVisible();
  await tab.getByRole('button', { name: 'Back to Tools' }).click();
  await expectDashboard(tab);
  await tab.close();

  // Older ?view= links land on the view's address; unknown addresses fall back to the grid.
  await page.goto('/dashboard?view=gallery');
  await expect(page.getByRole('heading', { name: 'Your Images' })).toBeVisible();
  await expect(page).toHaveURL(urlOf('/dashboard/images'));
  // A tool's older link named it by its short name, which is its address segment.
  await page.goto('/dashboard?view=restore');
  await expect(page.getByRole('heading', { name: 'AI Image Restore' })).toBeVisible();
  await expect(page).toHaveURL(urlOf('/dashboard/restore'));
  await page.goto('/dashboard/no-such-view');
  await expectDashboard(page);
});

test('cards are reachable and usable with the keyboard', UI_ONLY, async ({ page }) => {
  await signUp(page, newAccount());
  const card = page.getByRole('button', { name: 'Image Restore', exact: true });
  await card.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'AI Image Restore' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back to Tools' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expectDashboard(page);
});

test('Buy ENERGY and Buy More open the purchase dialog; Escape closes only the dialog', async ({ page }) => {
  await signUp(page, newAccount());
  await page.getByRole('button', { name: 'Buy ENERGY' }).click();
  const dialog = page.getByRole('dialog', { name: 'Purchase ENERGY' });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/purchase-dialog.png` });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Image Upscaler', exact: true }).click();
  await page.getByRole('button', { name: 'Buy More' }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Still in the view: Escape was used by the dialog.
  await expect(page.getByRole('heading', { name: 'AI Image Upscaler' })).toBeVisible();
});

test('prices fall back to the defaults when they cannot be loaded', UI_ONLY, async ({ page }) => {
  await page.route('**/api/pricing', (route) => route.fulfill({ status: 500, json: { error: 'boom', code: 'internal' } }));
  await signUp(page, newAccount());
  await expect(page.getByText('Could not load prices; showing default prices.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Image Upscaler', exact: true })).toContainText('2 ENERGY');
  await expect(page.getByRole('button', { name: 'Image to Video', exact: true })).toContainText('5 ENERGY');
  await expect(page.getByRole('button', { name: 'Video Upscaler', exact: true })).toContainText('20 ENERGY');
});

// The price list is stubbed here: this checks how the cards render what /api/pricing answers.
// That the server's prices reach it is the admin journey (admin.spec.ts) and pricing.test.ts.
test('tool cards show the effective cost and description the pricing API answers (stubbed API)', UI_ONLY, async ({ page }) => {
  await page.route('**/api/pricing', (route) =>
    route.fulfill({
      json: [
        {
          tool_name: 'fal-upscaler',
          display_name: 'Image Upscaler',
          description: 'Make it big',
          base_energy_cost: 10,
          discount_percentage: 30,
          is_active: true,
          effective_cost: 7,
        },
      ],
    }),
  );
  await signUp(page, newAccount());
  const card = page.getByRole('button', { name: 'Image Upscaler', exact: true });
  await expect(card).toContainText('7 ENERGY');
  await expect(card).toContainText('Make it big');
  await expect(page.getByText('Could not load prices')).toHaveCount(0);
});

test('recent transactions: list, Show older, and the error message', UI_ONLY, async ({ page }) => {
  const tx = (i: number, extra: Record<string, unknown> = {}) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    created_at: new Date(Date.UTC(2025, 0, 20 - i, 12)).toISOString(),
    type: 'spend',
    description: `Image Upscaler run ${i}`,
    amount: -2,
    amount_paid_cents: null,
    ...extra,
  });
  await page.route('**/api/transactions?*', (route) => {
    const url = new URL(route.request().url());
    if (url.searchParams.get('cursor') === 'page2') {
      return route.fulfill({ json: { items: [tx(11, { type: 'refund', amount: 2, description: 'Refund for failed run' })], next_cursor: null } });
    }
    expect(url.searchParams.get('limit')).toBe('10');
    const items = [tx(0, { type: 'purchase', amount: 50, amount_paid_cents: 1000, description: 'Starter bundle' })];
    for (let i = 1; i < 10; i++) items.push(tx(i));
    return route.fulfill({ json: { items, next_cursor: 'page2' } });
  });
  await signUp(page, newAccount());
  const panel = page.getByRole('region', { name: 'Recent transactions' });
  await expect(panel.getByTestId('transaction')).toHaveCount(10);
  await expect(panel.getByTestId('transaction').first()).toContainText('Starter bundle');
  await expect(panel.getByTestId('transaction').first()).toContainText('+50');
  await expect(panel.getByTestId('transaction').first()).toContainText('$10.00');
  await expect(panel.getByTestId('transaction').nth(1)).toContainText('-2');
  await panel.getByRole('button', { name: 'Show older' }).click();
  await expect(panel.getByTestId('transaction')).toHaveCount(11);
  await expect(panel.getByTestId('transaction').last()).toContainText('Refund for failed run');
  await expect(panel.getByRole('button', { name: 'Show older' })).toHaveCount(0);

  await page.unroute('**/api/transactions?*');
  await page.route('**/api/transactions?*', (route) =>
    route.fulfill({ status: 500, json: { error: 'database is down', code: 'internal' } }),
  );
  await page.reload();
  await expect(page.getByRole('region', { name: 'Recent transactions' }).getByRole('alert')).toHaveText(
    /Failed to load transactions: database is down/,
  );
});

test('the session loading screen is shown while the session question is pending', UI_ONLY, async ({ page }) => {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  await page.route('**/api/auth/session', async (route) => {
    await gate;
    await route.fallback();
  });
  await page.goto('/dashboard', { waitUntil: 'domcontentloaded' });
  await expect(page.getByText('Loading your AI workspace...')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/loading.png` });
  release();
  await expect(page.getByText('Built for creators and professionals')).toBeVisible();
});

test('role checks that fail leave both flags false', UI_ONLY, async ({ page }) => {
  await page.route('**/functions/v1/check-admin-status', (route) => route.fulfill({ status: 500, json: { error: 'x' } }));
  await page.route('**/functions/v1/check-vip-status', (route) => route.fulfill({ json: { isVip: true } }));
  await signUp(page, newAccount());
  await expect(page.getByRole('button', { name: 'Buy More' })).toBeVisible();
  await expect(page.getByText('FREE (VIP)')).toHaveCount(0);
});

test('a VIP sees free tools and no Buy More', UI_ONLY, async ({ page }) => {
  await page.route('**/functions/v1/check-vip-status', (route) => route.fulfill({ json: { isVip: true } }));
  await signUp(page, newAccount());
  // Five tools and Batch Processing.
  await expect(page.getByText('FREE (VIP)')).toHaveCount(6);
  const balance = page.getByRole('region', { name: 'ENERGY balance' });
  await expect(balance.getByText('VIP', { exact: true })).toBeVisible();
  await expect(balance.getByText('VIP access - unlimited usage')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Buy More' })).toHaveCount(0);
  await expect(page.getByText('Admin Controls')).toHaveCount(0);
});

test('referral-only registration shows the invite code field', UI_ONLY, async ({ page }) => {
  await page.route('**/api/settings/referral', (route) => route.fulfill({ json: { is_referral_only: true } }));
  await page.goto('/');
  await switchToRegister(page);
  await expect(page.getByLabel('Invite code')).toBeVisible();
  await submitRegisterForm(page, newAccount());
  await expect(formError(page)).toHaveText('Invite code is required to create an account');
});

test('open registration hides the invite code field', UI_ONLY, async ({ page }) => {
  await page.route('**/api/settings/referral', (route) => route.fulfill({ status: 404, json: { error: 'Not found' } }));
  await page.goto('/');
  await switchToRegister(page);
  await expect(page.getByLabel('Full name')).toBeVisible();
  await expect(page.getByLabel('Invite code')).toHaveCount(0);
});

test('the header shows the active plan with its Active marker', UI_ONLY, async ({ page }) => {
  await page.route('**/api/subscription', (route) =>
    route.fulfill({ json: { subscription: { price_id: 'price_pro', subscription_status: 'active', plan_name: 'Pro', is_active: true } } }),
  );
  await signUp(page, newAccount());
  const plan = page.getByTestId('active-plan');
  await expect(plan).toContainText('Pro');
  await expect(plan).toContainText('Active');
});

test('no plan, no plan chip', async ({ page }) => {
  await signUp(page, newAccount());
  await expect(page.getByRole('heading', { name: 'AI Tools', exact: true })).toBeVisible();
  await expect(page.getByTestId('active-plan')).toHaveCount(0);
});

test('a price change by the admin reaches an open dashboard live', async ({ page, browser }) => {
  await openAsAdmin(page);

  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  try {
    await signUp(userPage, newAccount());
    const card = userPage.getByRole('button', { name: 'Image Restore', exact: true });
    await expect(card).toContainText('1 ENERGY');

    // The admin's session (cookie) changes the base cost; the user's page is told over SSE.
    const res = await page.request.post('/functions/v1/admin-update-pricing', {
      data: { pricing_updates: { 'image-restore': 4 } },
    });
    expect(res.ok(), await res.text()).toBeTruthy();
    await expect(card).toContainText('4 ENERGY');

    const back = await page.request.post('/functions/v1/admin-update-pricing', {
      data: { pricing_updates: { 'image-restore': 1 } },
    });
    expect(back.ok()).toBeTruthy();
    await expect(card).toContainText('1 ENERGY');
  } finally {
    await userContext.close();
  }
});
