import { expect, test } from '@playwright/test';
import { expectAccessible } from './axe';
import { UI_ONLY } from './screens';

/** The API reference page (decision 032): axe at desktop and phone widths, closed and with an operation tried. */
for (const size of [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`the API reference page passes axe (${size.name})`, UI_ONLY, async ({ page }) => {
    await page.setViewportSize(size);
    await page.goto('/api/docs');
    await expect(page).toHaveTitle('PixelRush API reference');
    // Swagger UI renders the whole document at once: slow on a busy machine.
    await expect(page.locator('#operations-ops-getHealth')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('combobox', { name: 'Server' })).toBeVisible();
    await page.screenshot({ path: `test-results/api-reference-${size.name}.png` });
    await expectAccessible(page, `api reference ${size.name}`);

    await page.locator('#operations-ops-getHealth .opblock-summary-control').click();
    await page.getByRole('button', { name: 'Try it out' }).click();
    await page.getByRole('button', { name: 'Execute' }).click();
    await expect(page.locator('#operations-ops-getHealth .live-responses-table')).toContainText('200');
    await page.screenshot({ path: `test-results/api-reference-${size.name}-tried.png` });
    await expectAccessible(page, `api reference, an operation tried ${size.name}`);
  });
}
