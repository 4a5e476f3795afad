import { expect, test } from '@playwright/test';
import { signInAsAdmin } from './admin-helpers';
import { expectAccessible } from './axe';
import { testMediaForThisFile } from './fixtures/media';
import { atEachWidth, walkAdminScreens, walkSignedOutScreens, walkUserScreens } from './screens';

/**
 * axe on every screen a user or an admin can reach, at desktop and phone widths. The other
 * journeys call the same check on the screens they build up (runs, results, batches).
 */
const media = testMediaForThisFile();

atEachWidth((size) => {
  test(`signed-out screens (${size.name})`, async ({ page }) => {
    await walkSignedOutScreens(page, (stop) => expectAccessible(page, `${stop} ${size.name}`));
  });

  test(`a user's screens (${size.name})`, async ({ page }) => {
    await walkUserScreens(page, media(), (stop) => expectAccessible(page, `${stop} ${size.name}`));

    // The image library's tile actions menu.
    await page.getByRole('button', { name: 'Actions for sunset.png' }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectAccessible(page, `tile actions ${size.name}`);
    await page.keyboard.press('Escape');

    // Select mode: tiles are checkboxes, a bar offers the batch.
    await page.getByRole('button', { name: 'Select', exact: true }).click();
    await page.getByRole('checkbox', { name: /^Select sunset\.png/ }).click();
    await expect(page.getByTestId('selection-count')).toHaveText('1 selected');
    await expectAccessible(page, `image select mode ${size.name}`);
    await page.getByRole('tab', { name: /Batches/ }).click();
    await expectAccessible(page, `image batches tab ${size.name}`);

    // A tool with its source chosen and its advanced settings open.
    await page.goto('/dashboard/restore');
    await page.getByRole('tab', { name: 'Gallery' }).click();
    await page.getByRole('button', { name: 'sunset.png' }).first().click();
    await expect(page.getByTestId('source-name')).toHaveText('sunset.png');
    await page.getByRole('button', { name: 'Advanced Settings' }).click();
    await expectAccessible(page, `restore form ${size.name}`);

    await page.goto('/success');
    await expectAccessible(page, `success page ${size.name}`);
  });

  test(`an admin's screens (${size.name})`, async ({ page }) => {
    await signInAsAdmin(page);
    await walkAdminScreens(page, (stop) => expectAccessible(page, `${stop} ${size.name}`));
  });
});
