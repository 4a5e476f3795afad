import { expect, test } from '@playwright/test';
import { expectAccessible } from './axe';
import { expectLanding, switchToRegister } from './helpers';
import { atEachWidth, UI_ONLY } from './screens';

/**
 * The pages anyone can open without an account: the privacy notice (linked from
 * the landing footer and the Terms), the not-found page (a real 404), and the
 * files browsers and link previews ask for.
 */
atEachWidth((size) => {
  test(`the privacy notice is one click from the landing page (${size.name})`, UI_ONLY, async ({ page }) => {
    await page.goto('/');
    await expectLanding(page);
    await page.getByRole('navigation', { name: 'Legal' }).getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    await expect(page).toHaveTitle('Privacy Policy - PixelRush');
    // What the product stores, in its own sections.
    for (const section of ['Your account', 'Your library and tool runs', 'Payments and ENERGY', 'Logs and security', 'Cookies', 'How long we keep it']) {
      await expect(page.getByRole('heading', { level: 2, name: section })).toBeVisible();
    }
    await expect(page.getByText(/Card payments are handled by Stripe/)).toBeVisible();
    await expectAccessible(page, `privacy ${size.name}`);
    await page.screenshot({ path: `test-results/screens/privacy-${size.width}.png`, fullPage: true });

    await page.getByRole('link', { name: 'Back to PixelRush' }).click();
    await expectLanding(page);
  });
});

test('the Terms link to the privacy notice in a new tab, so the register form keeps what was typed', UI_ONLY, async ({ page }) => {
  await page.goto('/');
  await switchToRegister(page);
  await page.getByLabel('Full name').fill('Grace Hopper');
  const terms = page.getByRole('region', { name: 'Terms of Service text' });
  const [tab] = await Promise.all([page.context().waitForEvent('page'), terms.getByRole('link', { name: 'Privacy Policy' }).click()]);
  await expect(tab.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await tab.close();
  await expect(page.getByLabel('Full name')).toHaveValue('Grace Hopper');
});

test('a page answers 200 with its title and Open Graph tags; an unknown address answers 404 with the not-found page', UI_ONLY, async ({ page }) => {
  const privacy = await page.goto('/privacy');
  expect(privacy?.status()).toBe(200);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', 'Privacy Policy - PixelRush');
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /^https?:\/\/.+\/og-image\.png$/);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /What PixelRush stores about you/);

  const missing = await page.goto('/no/such/page');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle('Page not found - PixelRush');
});

test('robots.txt, the favicon and the web manifest are real files, not the app', UI_ONLY, async ({ page }) => {
  const robots = await page.request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain('User-agent: *');
  const favicon = await page.request.get('/favicon.ico');
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toMatch(/^image\//);
  const manifest = await page.request.get('/manifest.webmanifest');
  expect(manifest.status()).toBe(200);
  expect((await manifest.json()).name).toBe('PixelRush');
  const metrics = await page.request.get('/metrics', { headers: { accept: 'text/html' } });
  expect([401, 404]).toContain(metrics.status());
  expect(metrics.headers()['content-type']).not.toMatch(/html/);
});
