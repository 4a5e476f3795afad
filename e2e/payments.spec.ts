import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectDashboard, newAccount, signUp } from './helpers';
import { payWithTestCard, screens } from './admin-helpers';
import { UI_ONLY } from './screens';

interface Bundle {
  id: string;
  price_id: string;
  energy_amount: number;
  bonus_energy: number;
}

test.beforeAll(() => fs.mkdirSync('test-results/screens', { recursive: true }));

async function openPurchase(page: Page) {
  await page.getByRole('button', { name: 'Buy ENERGY' }).click();
  const dialog = page.getByRole('dialog', { name: 'Purchase ENERGY' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('bundle-starter')).toBeVisible();
  return dialog;
}

async function starterTotal(page: Page): Promise<number> {
  const bundles = (await (await page.request.get('/api/bundles')).json()) as Bundle[];
  const starter = bundles.find((b) => b.id === 'starter')!;
  return starter.energy_amount + starter.bonus_energy;
}

test('a user buys the Starter bundle through the test checkout and lands back with the ENERGY', async ({ page }) => {
  await signUp(page, newAccount({ name: 'Paying Customer' }));
  const total = await starterTotal(page);
  await expect(page.getByTestId('energy-balance')).toHaveText('0');

  const dialog = await openPurchase(page);
  await expect(dialog.getByRole('list', { name: 'ENERGY bundles' }).getByRole('listitem')).toHaveCount(4);
  await expect(dialog.getByTestId('bundle-trial')).toContainText('$1');
  await expect(dialog.getByTestId('bundle-trial')).toContainText('7');
  await expect(dialog.getByTestId('bundle-starter')).toContainText('$10');
  await expect(dialog.getByTestId('bundle-starter')).toContainText(`${total} ENERGY`);
  await expect(dialog.getByTestId('bundle-pro')).toContainText('$20');
  await expect(dialog.getByTestId('bundle-power')).toContainText('$50');
  // The third bundle is the popular one, and only it.
  await expect(dialog.getByTestId('bundle-pro')).toContainText('POPULAR');
  await expect(dialog.getByText('POPULAR')).toHaveCount(1);
  await expect(dialog.getByText('Secure payment processing')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeVisible();
  await screens(page, 'purchase-dialog', { fullPage: false });

  const sent = page.waitForRequest('**/functions/v1/stripe-checkout');
  await dialog.getByTestId('bundle-starter').click();
  const body = (await sent).postDataJSON();
  expect(body).toEqual({
    price_id: 'price_pixelrush_starter',
    mode: 'payment',
    success_url: 'http://127.0.0.1:' + new URL(page.url()).port + '/success',
    cancel_url: 'http://127.0.0.1:' + new URL(page.url()).port + '/dashboard',
  });

  // The built-in test checkout page.
  await payWithTestCard(page);
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  await expect(page.getByTestId('success-text')).toHaveText(
    `${total} ENERGY has been added to your account. New balance: ${total} ENERGY`,
  );
  await expect(page.getByTestId('energy-added')).toHaveText(`+${total}`);
  const countdown = page.getByTestId('redirect-countdown');
  await expect(countdown).toHaveText(/^Redirecting automatically in [1-5] seconds\.\.\.$/);
  await screens(page, 'success-page');
  await expect(countdown).toHaveText('Redirecting automatically in 2 seconds...');
  await expect(countdown).toHaveText('Redirecting automatically in 1 seconds...');

  // At zero the page moves to the dashboard by itself.
  await page.waitForURL(/\/dashboard$/, { timeout: 5_000 });
  const receipt = page.getByRole('dialog', { name: 'Purchase Successful!' });
  await expect(receipt).toBeVisible();
  await expect(receipt).toContainText(`+${total}`);
  await expect(receipt).toContainText(`New balance: ${total} ENERGY`);
  await screens(page, 'purchase-receipt', { fullPage: false });
  await receipt.getByRole('button', { name: 'Start Creating' }).click();
  await expect(receipt).toBeHidden();

  await expect(page.getByTestId('energy-balance')).toHaveText(String(total));
  const tx = page.getByRole('region', { name: 'Recent transactions' }).getByTestId('transaction').first();
  await expect(tx).toContainText(`+${total}`);
  await expect(tx).toContainText('$10.00');

  // A reload does not show the receipt again.
  await page.reload();
  await expectDashboard(page);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('cancelling on the checkout page returns to the dashboard with no change', async ({ page }) => {
  await signUp(page, newAccount());
  const dialog = await openPurchase(page);
  await dialog.getByTestId('bundle-trial').click();
  await page.waitForURL(/\/checkout\/test\//);
  await page.getByRole('button', { name: /Cancel and return/ }).click();
  await page.waitForURL(/\/dashboard$/);
  await expectDashboard(page);
  await expect(page.getByTestId('energy-balance')).toHaveText('0');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('No transactions yet')).toBeVisible();
});

test('a declined card shows the decline message and adds nothing', async ({ page }) => {
  await signUp(page, newAccount());
  const dialog = await openPurchase(page);
  await dialog.getByTestId('bundle-starter').click();
  await page.waitForURL(/\/checkout\/test\//);
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByLabel('Expiry').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
  // The entered fields stay, except the card number, which is the one to change.
  await expect(page.getByLabel('Card number')).toHaveValue('');
  await expect(page.getByLabel('Expiry')).toHaveValue('12/34');
  await expect(page.getByLabel('CVC')).toHaveValue('123');
  await expect(page.getByLabel('Name on card')).toHaveValue('Ada Lovelace');
  await page.getByRole('button', { name: /Cancel and return/ }).click();
  await page.waitForURL(/\/dashboard$/);
  await expect(page.getByTestId('energy-balance')).toHaveText('0');
});

test('the chosen bundle spins while the checkout starts; failures show the spec words and end processing', UI_ONLY, async ({ page }) => {
  await signUp(page, newAccount());
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  await page.route('**/functions/v1/stripe-checkout', async (route) => {
    await gate;
    await route.fulfill({ status: 503, json: { error: 'Stripe is taking a nap', code: 'unavailable' } });
  });
  const dialog = await openPurchase(page);
  const starter = dialog.getByTestId('bundle-starter');
  await starter.click();
  await expect(starter).toHaveAttribute('aria-busy', 'true');
  await expect(starter).toContainText('Opening checkout...');
  await expect(dialog.getByTestId('bundle-trial')).toBeDisabled();
  await expect(dialog.getByTestId('bundle-trial')).not.toHaveAttribute('aria-busy', 'true');
  release();
  await expect(dialog.getByRole('alert')).toHaveText('Stripe is taking a nap');
  await expect(starter).not.toHaveAttribute('aria-busy', 'true');
  await expect(dialog.getByTestId('bundle-trial')).toBeEnabled();

  const answers: Array<[string, { status: number; body?: string; json?: unknown }]> = [
    ['Failed to create checkout session', { status: 500, body: '' }],
    ['No authentication token found', { status: 401, body: '' }],
    ['No checkout URL received', { status: 200, json: { session_id: 'cs_x' } }],
  ];
  for (const [message, answer] of answers) {
    await page.unroute('**/functions/v1/stripe-checkout');
    await page.route('**/functions/v1/stripe-checkout', (route) => route.fulfill(answer));
    await dialog.getByTestId('bundle-pro').click();
    await expect(dialog.getByRole('alert')).toHaveText(message);
    await expect(dialog.getByTestId('bundle-pro')).not.toHaveAttribute('aria-busy', 'true');
  }
  await page.unroute('**/functions/v1/stripe-checkout');
  await page.route('**/functions/v1/stripe-checkout', (route) => route.abort());
  await dialog.getByTestId('bundle-power').click();
  await expect(dialog.getByRole('alert')).toHaveText('Purchase failed');
});

test('when purchases are disabled the dialog says so and bundles cannot be clicked', UI_ONLY, async ({ page }) => {
  await page.route('**/api/payments/config', (route) => route.fulfill({ json: { mode: 'disabled' } }));
  await signUp(page, newAccount());
  const dialog = await openPurchase(page);
  await expect(dialog.getByText('Purchases are currently unavailable')).toBeVisible();
  for (const id of ['trial', 'starter', 'pro', 'power']) await expect(dialog.getByTestId(`bundle-${id}`)).toBeDisabled();
  await page.screenshot({ path: 'test-results/screens/purchase-disabled-desktop.png' });
});

test('the success page without a session id, and while payment is still pending', async ({ page }) => {
  await signUp(page, newAccount());
  await page.goto('/success');
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  await expect(page.getByText('Your ENERGY has been added to your account.')).toBeVisible();
  await page.getByRole('button', { name: 'Go to Dashboard' }).click();
  await expectDashboard(page);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  let polls = 0;
  await page.route('**/api/checkout/sessions/*', (route) => {
    polls++;
    return route.fulfill({ json: { status: 'pending', plan_name: 'Starter', energy_added: 0, amount_cents: 1000 } });
  });
  await page.goto('/success?session_id=cs_test_pending');
  await expect(page.getByText(/Confirming your payment/)).toBeVisible();
  await expect.poll(() => polls, { timeout: 4_000 }).toBeGreaterThanOrEqual(3);
  await page.waitForURL(/\/dashboard$/, { timeout: 8_000 });

  await page.unroute('**/api/checkout/sessions/*');
  await page.goto('/success?session_id=cs_test_unknown');
  await expect(page.getByRole('heading', { name: 'Payment not completed' })).toBeVisible();
  await expect(page.getByText('We could not find this checkout for your account.')).toBeVisible();
});
