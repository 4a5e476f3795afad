import sharp from 'sharp';
import { test, expect } from '@playwright/test';
import { adminApiForThisFile, screenshotsTo } from './journey';
import { expectAccessible } from './axe';

/**
 * Image restore against the real local provider: a heavily compressed JPEG
 * goes in, the answer says before the run what a run that changes nothing
 * costs, and after it what was found and repaired.
 *
 * Set RESTORE_SHOTS=<dir> to keep screenshots (1366 and 390 px wide).
 */
const shot = screenshotsTo('RESTORE_SHOTS', { fullPage: true });
const { userWithEnergy } = adminApiForThisFile();

/** A 320x224 street sign (text, a face-like disc, a gradient sky) saved as a JPEG at quality 12. */
async function compressedJpeg(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="224">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3b6ea8"/><stop offset="1" stop-color="#e6eef5"/></linearGradient></defs>
    <rect width="320" height="224" fill="url(#sky)"/>
    <circle cx="250" cy="70" r="38" fill="#efc39d"/><circle cx="238" cy="62" r="4" fill="#333"/><circle cx="262" cy="62" r="4" fill="#333"/>
    <path d="M236 86 q14 10 28 0" stroke="#8c3a33" stroke-width="3" fill="none"/>
    <rect x="20" y="120" width="200" height="80" rx="6" fill="#1f3d2b"/>
    <text x="120" y="160" text-anchor="middle" font-family="DejaVu Sans" font-size="26" fill="#f1e4b8">BAKERY</text>
    <text x="120" y="186" text-anchor="middle" font-family="DejaVu Sans" font-size="12" fill="#f1e4b8">open every day</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 12, chromaSubsampling: '4:2:0' }).toBuffer();
}

test('restores a heavily compressed JPEG and says what it found and repaired', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await userWithEnergy(page, 5);
  await page.goto('/dashboard');
  await page.locator('[data-card="fal-image-restore"]').click();
  await expect(page.getByRole('heading', { name: 'AI Image Restore' })).toBeVisible();

  // Before the run: what a run that changes nothing costs.
  await expect(page.getByTestId('restore-unchanged-note')).toHaveText(
    'If your photo has nothing we can improve, it comes back unchanged and we tell you so. The run still costs its ENERGY: checking the photo is the work.',
  );
  await page.locator('input[type="file"]').setInputFiles({ name: 'bakery.jpg', mimeType: 'image/jpeg', buffer: await compressedJpeg() });
  await expect(page.getByTestId('source-name')).toHaveText('bakery.jpg', { timeout: 20_000 });
  await shot(page, 'restore-form-1366');
  await expectAccessible(page, 'restore form with a photo');

  await page.getByTestId('run-button').click();
  const findings = page.getByTestId('restore-findings');
  await expect(findings).toBeVisible({ timeout: 150_000 });
  await expect(page.getByTestId('tool-result')).toBeVisible();
  await expect(page.getByTestId('restore-findings-summary')).toContainText('Repaired compression damage');
  const compression = page.getByTestId('finding-compression');
  // Uploads are stored re-saved at quality 90: the earlier, stronger save is read back from the pixels.
  await expect(compression).toContainText(/JPEG save at quality about \d+/);
  await expect(compression.getByLabel('Repaired')).toBeVisible();
  // The upscaler ran after the repair (default 2x).
  await expect(page.getByTestId('result-details')).toContainText('esrgan');
  await expect(page.getByTestId('energy-balance')).toHaveText('4');
  await shot(page, 'restore-result-1366');
  await expectAccessible(page, 'restore result with findings');

  await page.setViewportSize({ width: 390, height: 844 });
  await findings.scrollIntoViewIfNeeded();
  await expect(findings).toBeVisible();
  await shot(page, 'restore-result-390');
  await expectAccessible(page, 'restore result with findings, phone width');
});
