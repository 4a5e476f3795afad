import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { makeTestMedia, removeTestMedia, type TestMedia } from './fixtures/media';
import { newAccount, signUp } from './helpers';
import { openAsAdmin } from './admin-helpers';
import { UI_ONLY } from './screens';

/**
 * Phone layouts at 390 px that used to cut things off or cover them: the image library's tabs
 * (the 'Batches' tab was scrolled out of sight), its tiles (the action buttons sat on the
 * picture) and the admin summary cards ('0 gra…', 'balan…').
 */
test.use({ viewport: { width: 390, height: 844 } });
const SHOTS = 'test-results/screens';

let media: TestMedia;
test.beforeAll(async () => {
  media = await makeTestMedia();
});
test.afterAll(() => removeTestMedia(media));

/** Text that is wider than its box (cut off with an ellipsis or clipped). */
async function overflowing(scope: Locator): Promise<string[]> {
  return scope.locator('p, span').evaluateAll((els) =>
    els.filter((el) => el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0).map((el) => el.textContent ?? ''),
  );
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function upload(page: Page, file: string) {
  const res = await page.request.post('/api/library/uploads?kind=image', {
    multipart: { file: { name: file.split('/').pop()!, mimeType: file.endsWith('.png') ? 'image/png' : 'image/jpeg', buffer: fs.readFileSync(file) } },
  });
  expect(res.status(), await res.text()).toBe(201);
}

test('the image library on a phone: every tab in sight, tiles with nothing on the picture', UI_ONLY, async ({ page }) => {
  await signUp(page, newAccount());
  await upload(page, media.png);
  await upload(page, media.jpeg);
  await page.goto('/dashboard/images');
  await expect(page.getByRole('button', { name: 'Open sunset.png' })).toBeVisible();

  const tabs = page.getByRole('tablist', { name: 'Image groups' });
  await tabs.scrollIntoViewIfNeeded();
  for (const name of ['All', 'Generated', 'Uploaded', 'Batches', 'Shared links']) {
    await expect(tabs.getByRole('tab', { name: new RegExp(`^${name}`) })).toBeInViewport({ ratio: 1 });
  }
  expect(await tabs.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

  for (const name of ['sunset.png', 'forest.jpg']) {
    const tile = page.getByTestId('image-tile').filter({ has: page.getByRole('button', { name: `Open ${name}` }) });
    const picture = (await tile.locator('img').boundingBox())!;
    // The picture is whole: as wide as the tile and square.
    expect(Math.abs(picture.width - picture.height)).toBeLessThan(2);
    const actions = tile.getByRole('button', { name: `Actions for ${name}` });
    await expect(actions).toBeVisible();
    for (const button of await tile.getByRole('button').all()) {
      if ((await button.getAttribute('aria-label'))?.startsWith('Open ') || !(await button.isVisible())) continue;
      const box = (await button.boundingBox())!;
      expect(overlaps(box, picture), `${await button.getAttribute('aria-label')} sits on the picture`).toBe(false);
    }
    // Name, source and date read in full under it.
    await expect(tile.getByText(name, { exact: true })).toBeVisible();
    expect(await overflowing(tile)).toEqual([]);
    // Delete is one tap away in the menu.
    await actions.click();
    await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
    await page.keyboard.press('Escape');
  }
  await page.screenshot({ path: `${SHOTS}/phone-library.png`, fullPage: true });

  await tabs.getByRole('tab', { name: /^Batches/ }).click();
  await expect(tabs.getByRole('tab', { name: /^Batches/ })).toHaveAttribute('aria-selected', 'true');
});

test('the admin summary cards on a phone show their figures in full', UI_ONLY, async ({ page }) => {
  await openAsAdmin(page);
  await page.goto('/dashboard/admin');
  const summary = page.getByTestId('platform-summary');
  await expect(summary).toBeVisible();
  await expect(summary.getByText(/refunded · [\d,]+ granted$/)).toBeVisible();
  await expect(summary.getByText(/[\d,]+ ENERGY in balances$/)).toBeVisible();
  expect(await overflowing(summary)).toEqual([]);
  await summary.screenshot({ path: `${SHOTS}/phone-admin-summary.png` });
});
