import sharp from 'sharp';
import { test, expect } from '@playwright/test';
import { adminApiForThisFile, runTool, screenshotsTo } from './journey';
import { expectAccessible } from './axe';

/**
 * Versions (issue 26) in the browser: three tools in a row on one picture, then the image detail
 * shows the chain, compares the first and the last in the slider, and runs another tool on a
 * version. Set VERSION_SHOTS=<dir> to keep screenshots.
 */
const shot = screenshotsTo('VERSION_SHOTS');
const { userWithEnergy } = adminApiForThisFile();

test('three tools in a row on one picture; the detail compares the first and the last, and runs a tool on a version', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await userWithEnergy(page, 20);
  const png = await sharp({ create: { width: 48, height: 36, channels: 3, background: '#aa6633' } })
    .composite([{ input: await sharp({ create: { width: 16, height: 12, channels: 3, background: '#2255cc' } }).png().toBuffer(), left: 8, top: 8 }])
    .png()
    .toBuffer();
  const up = await page.request.post('/api/library/uploads?kind=image', { multipart: { file: { name: 'chain.png', mimeType: 'image/png', buffer: png } } });
  expect(up.status()).toBe(201);
  const original = (await up.json()).id as string;
  const restored = await runTool(page, 'fal-image-restore', { image_url: original, upscaling: 1 });
  const upscaled = await runTool(page, 'fal-upscaler', { image_url: restored, scale: 2 });
  await runTool(page, 'fal-image-editor', { image_url: upscaled, prompt: 'make it brighter' });

  await page.goto('/dashboard/images');
  await expect(page.getByRole('heading', { name: 'Your Images' })).toBeVisible();
  await page.getByRole('button', { name: /^Open Image/ }).first().click();
  const dialog = page.getByRole('dialog');
  const versions = dialog.getByTestId('versions');
  await expect(versions.getByRole('listitem')).toHaveCount(4);
  await expect(versions.getByRole('listitem').nth(0)).toContainText('1. Original');
  await expect(versions.getByRole('listitem').nth(3)).toContainText('4. AI Image Editor');
  await shot(page, 'versions-detail-1366');
  await expectAccessible(page, 'image detail with versions');

  // Compare the first with the last (the defaults), and drag the slider.
  await expect(versions.getByLabel('Compare')).toHaveValue(original);
  await versions.getByRole('button', { name: 'Compare versions' }).click();
  const compare = dialog.getByTestId('versions-compare');
  await expect(compare).toBeVisible();
  await expect(compare.getByText('1. Original')).toBeVisible();
  await expect(compare.getByText('4. AI Image Editor')).toBeVisible();
  const images = compare.locator('img');
  await expect(images).toHaveCount(2);
  for (const img of await images.all()) await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  const handle = compare.getByRole('slider');
  const before = await handle.getAttribute('aria-valuenow');
  const box = (await compare.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2, { steps: 6 });
  await page.mouse.up();
  await expect.poll(async () => Number(await handle.getAttribute('aria-valuenow'))).toBeLessThan(Number(before) - 10);
  await shot(page, 'versions-compare-1366');
  await expectAccessible(page, 'versions compared');

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'versions-compare-390');
  // On a phone the dialog scrolls as one column: the versions panel is whole, nothing wider than the screen.
  await versions.getByRole('button', { name: 'Compare versions' }).scrollIntoViewIfNeeded();
  await shot(page, 'versions-panel-390');
  const panelBox = (await versions.boundingBox())!;
  expect(panelBox.x).toBeGreaterThanOrEqual(0);
  expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(390);
  expect(await versions.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expect(versions.getByRole('button', { name: 'Compare versions' })).toBeInViewport();
  await expectAccessible(page, 'versions on a phone');
  await page.setViewportSize({ width: 1366, height: 900 });

  // Deleting the original says first that the versions made from it stay.
  await versions.getByRole('button', { name: /1\. Original/ }).click();
  await dialog.getByRole('button', { name: 'Delete image' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByTestId('delete-keeps-versions')).toHaveText('3 versions made from it stay in your library.');
  await shot(page, 'versions-delete-1366');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: /^Open Image/ }).first().click();

  // Another tool on the second version: the tool opens with it picked.
  await versions.getByRole('button', { name: /2\. AI Image Restore/ }).click();
  await versions.getByRole('link', { name: 'Upscale' }).click();
  await expect(page.locator('#tool-title')).toHaveText('AI Image Upscaler');
  await expect(page.getByTestId('source-name')).toBeVisible();
  expect(await page.evaluate(() => location.search)).toBe('');
});
