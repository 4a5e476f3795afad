import fs from 'node:fs';
import sharp from 'sharp';
import { test, expect } from '@playwright/test';
import { adminApiForThisFile, openTool, screenshotsTo } from './journey';
import { expectAccessible } from './axe';

/**
 * Outputs (issue 26) in the browser: pick WebP at a width on the upscaler, run it, and download
 * the result; the converted 'Download as JPEG' copy. Set OUTPUT_SHOTS=<dir> to keep screenshots.
 */
const shot = screenshotsTo('OUTPUT_SHOTS', { fullPage: true });
const { userWithEnergy } = adminApiForThisFile();

test('pick WebP at a width on the upscaler, run it and download it; download a JPEG copy', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await userWithEnergy(page, 10);
  await openTool(page, 'fal-upscaler');
  const source = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#3366aa' } }).png().toBuffer();
  await page.locator('input[type="file"]').setInputFiles({ name: 'small.png', mimeType: 'image/png', buffer: source });
  await expect(page.getByTestId('source-name')).toHaveText('small.png', { timeout: 20_000 });

  const output = page.getByTestId('output-settings');
  await output.getByRole('button', { name: /Output/ }).click();
  await output.getByLabel('Format').click();
  await page.getByRole('option', { name: 'WebP' }).click();
  await output.getByLabel('Size').click();
  await page.getByRole('option', { name: 'Width in pixels' }).click();
  await output.getByLabel('Width (px)').fill('200');
  await expect(output).toContainText('WebP 200 px');
  await shot(page, 'outputs-form-1366');
  await expectAccessible(page, 'upscaler output settings');

  await page.getByTestId('run-button').click();
  const result = page.getByTestId('tool-result');
  await expect(result).toBeVisible({ timeout: 150_000 });
  await expect(result.getByTestId('result-details')).toContainText('3x');

  const download = page.waitForEvent('download');
  await result.getByTestId('download-result').click();
  const file = await (await download).path();
  const meta = await sharp(fs.readFileSync(file)).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(['webp', 200, 150]);

  const jpeg = page.waitForEvent('download');
  await result.getByRole('link', { name: 'Download as JPEG' }).click();
  const copy = await jpeg;
  expect(copy.suggestedFilename()).toMatch(/\.jpg$/);
  const copyMeta = await sharp(fs.readFileSync(await copy.path())).metadata();
  expect([copyMeta.format, copyMeta.width]).toEqual(['jpeg', 200]);
  await shot(page, 'outputs-result-1366');
  await expectAccessible(page, 'upscaler result with download as');

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'outputs-result-390');
});
