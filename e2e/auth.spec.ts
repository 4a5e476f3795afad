import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  expectDashboard,
  expectLanding,
  fillSignIn,
  formError,
  newAccount,
  register,
  registerOrSignInAdmin,
  signIn,
  signOut,
  submitRegisterForm,
  switchToRegister,
} from './helpers';
import { UI_ONLY } from './screens';

test.describe('sign-up, sign-out, sign-in', () => {
  test('a new user registers, sees the dashboard, signs out and signs in again', async ({ page }) => {
    const account = newAccount({ name: 'Grace Hopper' });

    await page.goto('/');
    await expect(page.getByText('Loading your AI workspace...')).toBeHidden();
    await expectLanding(page);
    // The form starts in login mode.
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(page.getByLabel('Full name')).toHaveCount(0);

    await switchToRegister(page);
    await submitRegisterForm(page, account);
    await expectDashboard(page);

    await expect(page.getByTestId('user-name')).toHaveText('Grace Hopper');
    const balance = page.getByRole('region', { name: 'ENERGY balance' });
    await expect(balance.getByTestId('energy-balance')).toHaveText('0');
    await expect(balance.getByText('ENERGY', { exact: true })).toBeVisible();
    await expect(balance.getByRole('button', { name: 'Buy More' })).toBeVisible();
    await expect(page.getByText('Transform your images with cutting-edge AI technology')).toBeVisible();
    await expect(page.getByText('No transactions yet')).toBeVisible();

    // The session survives a reload (httpOnly cookie).
    await page.reload();
    await expectDashboard(page);
    await expect(page.getByTestId('user-name')).toHaveText('Grace Hopper');

    await signOut(page);
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();

    // Signed out: protected pages show the landing page.
    await page.goto('/success');
    await expectLanding(page);

    await signIn(page, account);
    await expect(page.getByTestId('user-name')).toHaveText('Grace Hopper');
  });

  test('the password can be shown and hidden', UI_ONLY, async ({ page }) => {
    await page.goto('/');
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('secret-value');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');
  });
});

test.describe('registration and sign-in errors appear in the red box above the form', () => {
  const cases: Array<{ title: string; form: Parameters<typeof submitRegisterForm>[1]; message: string }> = [
    {
      title: 'passwords differ',
      form: { ...newAccount(), confirmPassword: 'something-else' },
      message: 'Passwords do not match',
    },
    {
      title: 'password too short',
      form: { ...newAccount(), password: 'abc', confirmPassword: 'abc' },
      message: 'Password must be at least 6 characters long',
    },
    {
      title: 'terms not accepted',
      form: { ...newAccount(), acceptTerms: false },
      message: 'You must agree to the Terms of Service to create an account',
    },
    {
      title: 'age not confirmed',
      form: { ...newAccount(), confirmAge: false },
      message: 'You must be at least 18 years old to use this service',
    },
  ];

  for (const c of cases) {
    test(`register: ${c.title}`, UI_ONLY, async ({ page }) => {
      await page.goto('/');
      await switchToRegister(page);
      await submitRegisterForm(page, c.form);
      const alert = formError(page);
      await expect(alert).toHaveText(c.message);
      await expect(alert).toHaveClass(/red/);
      // The box sits above the form fields.
      const alertBox = await alert.boundingBox();
      const nameBox = await page.getByLabel('Full name').boundingBox();
      expect(alertBox!.y).toBeLessThan(nameBox!.y);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expectLanding(page);
    });
  }

  test('register: an e-mail that is already registered (server error)', async ({ page, request }) => {
    const account = newAccount();
    const res = await request.post('/api/auth/sign-up/email', {
      data: { name: account.name, email: account.email, password: account.password },
    });
    expect(res.ok()).toBeTruthy();

    await page.goto('/');
    await switchToRegister(page);
    await submitRegisterForm(page, account);
    await expect(formError(page)).toHaveText('An account with this email already exists');
    await expectLanding(page);
  });

  test('sign in with a wrong password', async ({ page, request }) => {
    const account = newAccount();
    await request.post('/api/auth/sign-up/email', {
      data: { name: account.name, email: account.email, password: account.password },
    });
    await page.goto('/');
    await fillSignIn(page, { email: account.email, password: 'wrong-password' });
    await expect(formError(page)).toHaveText('Invalid email or password');
    await expectLanding(page);
  });

  test('switching modes clears the error', async ({ page }) => {
    await page.goto('/');
    await switchToRegister(page);
    await submitRegisterForm(page, { ...newAccount(), confirmPassword: 'nope-nope' });
    await expect(formError(page)).toBeVisible();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(formError(page)).toHaveCount(0);
    await expect(page.getByLabel('Full name')).toHaveCount(0);
  });
});

test.describe('roles on the dashboard', () => {
  test('a regular user never sees Admin Controls and pays per run', async ({ page }) => {
    await register(page, newAccount());
    await expect(page.getByRole('heading', { name: 'Image & Video Tools' })).toBeVisible();
    await expect(page.getByText('Admin Controls')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Admin Dashboard' })).toHaveCount(0);
    await expect(page.getByText('FREE (ADMIN)')).toHaveCount(0);

    const upscaler = page.getByRole('button', { name: 'Image Upscaler', exact: true });
    await expect(upscaler).toContainText(/\d+ ENERGY/);
    await expect(upscaler).toContainText('per image');
    await expect(page.getByRole('button', { name: 'Image to Video', exact: true })).toContainText('per video');
    await expect(page.getByRole('button', { name: 'Video Upscaler', exact: true })).toContainText('per video');

    // Media Management: galleries are free, batches are priced from their tools, one SOON card is disabled.
    await expect(page.getByRole('button', { name: 'My Images' })).toContainText('FREE');
    await expect(page.getByRole('button', { name: 'My Videos' })).toContainText('FREE');
    const batch = page.getByRole('button', { name: 'Batch Processing' });
    await expect(batch).toBeEnabled();
    await expect(batch).toContainText(/from\s*\d+ ENERGY\s*per image/);
    const soon = page.getByRole('button', { name: 'Custom Models' });
    await expect(soon).toBeDisabled();
    await expect(soon).toContainText('SOON');
    await expect(soon).toContainText('TBD');

    // A view that needs admin rights is not reachable by deep link.
    await page.goto('/dashboard?view=admin');
    await expectDashboard(page);
    await expect(page.getByRole('button', { name: 'Back to Tools' })).toHaveCount(0);
  });

  test('the admin sees Admin Controls, free tools and no Buy More', async ({ page }) => {
    // ADMIN_EMAILS makes this account admin; it can be registered once per server run.
    await registerOrSignInAdmin(page);

    await expect(page.getByRole('heading', { name: 'Admin Controls' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Admin Dashboard' })).toContainText(
      'Manage AI tool pricing and global discount settings',
    );
    await expect(page.getByRole('button', { name: 'Referrals' })).toContainText('Manage invite codes and track referrals');
    // Five tools and Batch Processing.
    await expect(page.getByText('FREE (ADMIN)')).toHaveCount(6);
    const balance = page.getByRole('region', { name: 'ENERGY balance' });
    await expect(balance.getByText('ADMIN', { exact: true })).toBeVisible();
    await expect(balance.getByText('Admin access - unlimited usage')).toBeVisible();
    await expect(balance.getByRole('button', { name: 'Buy More' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Admin Dashboard' }).click();
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/admin-view.png', fullPage: true });
    await page.getByRole('button', { name: 'Back to Tools' }).click();
    await expect(page.getByRole('heading', { name: 'Admin Controls' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/dashboard-admin.png', fullPage: true });
  });
});

test.describe('routes', () => {
  test('an unknown path shows the not-found view with a link home', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/not-found.png' });
    await page.getByRole('link', { name: 'Go home' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expectLanding(page);
  });

  test('/ redirects to /dashboard', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
    await register(page, newAccount());
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expectDashboard(page);
  });
});

async function noHorizontalScroll(page: Page) {
  const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
}

test.describe('phone layout', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('landing and dashboard fit a 390px wide screen', UI_ONLY, async ({ page }) => {
    fs.mkdirSync('test-results/screens', { recursive: true });
    await page.goto('/');
    await expectLanding(page);
    await noHorizontalScroll(page);
    await page.screenshot({ path: 'test-results/screens/phone-landing.png', fullPage: true });

    await switchToRegister(page);
    await submitRegisterForm(page, { ...newAccount(), confirmPassword: 'mismatch!' });
    await expect(formError(page)).toHaveText('Passwords do not match');
    await noHorizontalScroll(page);
    await page.screenshot({ path: 'test-results/screens/phone-register-error.png', fullPage: true });

    await submitRegisterForm(page, newAccount({ name: 'Katherine Johnson-Goble the Third' }));
    await expectDashboard(page);
    await noHorizontalScroll(page);
    await page.screenshot({ path: 'test-results/screens/phone-dashboard.png', fullPage: true });
    await page.screenshot({ path: 'test-results/screens/phone-dashboard-top.png' });
    // The header keeps the name readable and every control on screen.
    await expect(page.getByTestId('user-name')).toBeVisible();
    expect((await page.getByTestId('user-name').boundingBox())!.width).toBeGreaterThan(60);
    for (const name of ['Buy ENERGY', 'Sign Out']) {
      const box = (await page.getByRole('button', { name }).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }

    // One column of cards.
    const a = await page.getByRole('button', { name: 'Image Upscaler', exact: true }).boundingBox();
    const b = await page.getByRole('button', { name: 'Image Editor', exact: true }).boundingBox();
    expect(b!.y).toBeGreaterThan(a!.y + a!.height - 1);
    expect(Math.abs(a!.x - b!.x)).toBeLessThan(2);

    await page.getByRole('button', { name: 'Image Restore', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'AI Image Restore' })).toBeVisible();
    await noHorizontalScroll(page);
    await page.screenshot({ path: 'test-results/screens/phone-view.png', fullPage: true });
  });
});
