import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { readZip } from '../test/helpers/zip';
import { adminApi, findUserId, openAsAdmin } from './admin-helpers';
import { expectAccessible } from './axe';
import { newAccount } from './helpers';

/**
 * Batch Processing against the real server and local AI provider: a batch of
 * 12 dropped files with one failure refunded and 'Download all'; a balance
 * that covers only part (chosen in My Images' Select mode); 'Cancel remaining'
 * (chosen in the picker dialog); a reload mid-batch that finds it again.
 *
 * Screenshots of the batch page go to BATCH_SHOTS=<dir> when set.
 */

const SHOTS = process.env.BATCH_SHOTS;

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1366, height: 900 };
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-1366.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(SHOTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize(size);
}

/** A PNG of one colour (each colour is a different file to the server's de-duplication). */
const solid = (width: number, height: number, r: number, g: number, b: number) =>
  sharp({ create: { width, height, channels: 3, background: { r, g, b } } }).png().toBuffer();

/** A gradient big enough that an upscale takes a few seconds. */
const gradient = (seed: number) => {
  const w = 224;
  const h = 160;
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) raw.set([(x * 3 + seed * 40) % 256, (y * 5 + seed * 17) % 256, 128 + ((x + y + seed) % 96)], (y * w + x) * 3);
  }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
};

let admin: APIRequestContext;
test.beforeAll(async () => {
  admin = await adminApi();
});
test.afterAll(async () => {
  await admin?.dispose();
});

/** A new signed-in user (session in the page's context) holding `energy` ENERGY. */
async function userWithEnergy(page: Page, energy: number) {
  const account = newAccount();
  const res = await page.request.post('/api/auth/sign-up/email', {
    data: { name: account.name, email: account.email, password: account.password },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  if (energy > 0) {
    const id = await findUserId(admin, account.email);
    const grant = await admin.post(`/api/admin/users/${id}/grant`, { data: { amount: energy } });
    expect(grant.ok(), await grant.text()).toBeTruthy();
  }
  return account;
}

async function apiUpload(page: Page, name: string, buffer: Buffer): Promise<string> {
  const res = await page.request.post('/api/library/uploads?kind=image', { multipart: { file: { name, mimeType: 'image/png', buffer } } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const balance = (page: Page) => page.getByTestId('energy-balance');
const finishedLine = (page: Page) => page.getByTestId('batch-finished');

async function openBatchFromCard(page: Page) {
  await page.goto('/dashboard');
  const card = page.getByRole('button', { name: 'Batch Processing' });
  await expect(card).toContainText(/from\s*\d+ ENERGY\s*per image/);
  await card.click();
  await expect(page).toHaveURL(/\/dashboard\/batch$/);
  await expect(page.getByRole('heading', { name: 'Batch Processing', exact: true })).toBeVisible();
}

async function waitForBatchEnd(page: Page, timeout = 150_000) {
  await expect(finishedLine(page)).toHaveText('Batch finished', { timeout });
}

test('12 dropped images, one fails and is refunded; Download all holds the finished files', async ({ page }) => {
  await userWithEnergy(page, 20);
  await openBatchFromCard(page);
  await expect(balance(page)).toHaveText('20');

  await page.getByRole('radio', { name: 'AI Image Editor' }).check();
  // Every picture becomes 500 px wide; the tall thin one would be 500x20000, more than the editor makes.
  await page.getByLabel('Describe the changes (applied to every image)').fill('resize to 500px wide');

  const files = await Promise.all(
    Array.from({ length: 11 }, async (_, i) => ({ name: `tile-${String(i + 1).padStart(2, '0')}.png`, mimeType: 'image/png', buffer: await solid(48, 48, 20 * i, 255 - 20 * i, 90) })),
  );
  files.push({ name: 'tall.png', mimeType: 'image/png', buffer: await solid(10, 400, 200, 40, 40) });
  await page.getByTestId('batch-dropzone').locator('input[type="file"]').setInputFiles(files);

  // Each file has its own row; all of them land in the batch.
  await expect(page.getByTestId('upload-row')).toHaveCount(12);
  await expect(page.getByTestId('batch-image-count')).toHaveText('12 of 100', { timeout: 30_000 });
  await expect(page.getByTestId('chosen-image')).toHaveCount(12);
  await expect(page.getByTestId('batch-total')).toHaveText('12 ENERGY');
  await expectAccessible(page, 'new batch');

  await page.getByTestId('batch-run').click();
  await expect(page).toHaveURL(/\/dashboard\/batch\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Batch · AI Image Editor' })).toBeVisible();
  await expect(page.getByTestId('batch-item')).toHaveCount(12);
  await expect(balance(page)).toHaveText('8');

  await waitForBatchEnd(page);
  await expect(page.getByTestId('batch-counts')).toHaveText('11 done · 1 failed');
  const failed = page.locator('[data-testid="batch-item"][data-status="failed"]');
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText('tall.png');
  await expect(failed.getByTestId('batch-item-error')).toContainText('the editor makes images up to 8192 px on a side');
  await expect(failed).toContainText('1 ENERGY refunded');
  await expect(page.getByTestId('batch-energy')).toHaveText('12 ENERGY charged · 1 ENERGY refunded');
  await expect(balance(page)).toHaveText('9');
  await expectAccessible(page, 'finished batch');
  await shots(page, 'batch-finished');

  // 'Download all' is a plain link: the browser saves the ZIP the server streams.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('batch-download').click()]);
  expect(download.suggestedFilename()).toMatch(/\.zip$/);
  const entries = await readZip(fs.readFileSync((await download.path())!));
  expect(entries.size).toBe(11);
  for (const [name, bytes] of entries) {
    expect(name).toMatch(/tile-\d\d/);
    expect(bytes.subarray(1, 4).toString('ascii'), name).toBe('PNG');
  }

  // 'Retry failed' runs the failed image again (charged again, and refunded again when it fails again).
  await page.getByRole('button', { name: 'Retry failed' }).click();
  await expect(page.getByTestId('batch-notice')).toHaveText('1 image queued again');
  await waitForBatchEnd(page);
  await expect(page.getByTestId('batch-counts')).toHaveText('11 done · 1 failed');
  await expect(page.getByTestId('batch-energy')).toHaveText('13 ENERGY charged · 2 ENERGY refunded');
  await expect(balance(page)).toHaveText('9');

  // My Images shows the results as one batch, linked to its page.
  await page.goto('/dashboard/images');
  await expect(page.getByRole('link', { name: /^Batch of / })).toHaveCount(11);
  await page.getByRole('tab', { name: /Batches/ }).click();
  const group = page.getByRole('link', { name: 'Batch · AI Image Editor · 11 images' });
  await expect(group).toBeVisible();
  await group.click();
  await expect(page).toHaveURL(/\/dashboard\/batch\/[0-9a-f-]{36}$/);
  await expect(finishedLine(page)).toHaveText('Batch finished');
});

test('a balance that covers part of the batch: chosen in My Images, run the part it covers', async ({ page }) => {
  await userWithEnergy(page, 3);
  // A batch that is not this user's (or not at all) says so and leads to the batch list.
  await page.goto('/dashboard/batch/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('alert')).toContainText('Batch not found');
  await expect(page.getByRole('link', { name: 'All batches' })).toBeVisible();

  for (let i = 0; i < 5; i++) await apiUpload(page, `pick-${i + 1}.png`, await solid(40, 40, 40 * i, 60, 200 - 30 * i));

  await page.goto('/dashboard/images');
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  for (let i = 0; i < 5; i++) {
    const box = page.getByRole('checkbox', { name: new RegExp(`^Select pick-${i + 1}\\.png`) });
    // The keyboard works too: Space checks the focused tile.
    if (i === 0) {
      await box.focus();
      await page.keyboard.press('Space');
    } else await box.click();
    await expect(box).toHaveAttribute('aria-checked', 'true');
  }
  await expect(page.getByTestId('selection-count')).toHaveText('5 selected');
  await expectAccessible(page, 'library select mode');
  await page.getByRole('button', { name: 'Process in batch' }).click();

  await expect(page).toHaveURL(/\/dashboard\/batch$/);
  await expect(page.getByTestId('chosen-image')).toHaveCount(5);
  await page.getByRole('radio', { name: 'AI Image Editor' }).check();
  await page.getByLabel('Describe the changes (applied to every image)').fill('black and white');
  await expect(page.getByTestId('batch-total')).toHaveText('5 ENERGY');

  const partial = page.getByTestId('batch-partial');
  await expect(partial).toContainText('Your balance covers 3 of 5 images');
  await partial.getByRole('button', { name: 'Top up' }).click();
  await expect(page.getByRole('dialog', { name: 'Purchase ENERGY' })).toBeVisible();
  await page.keyboard.press('Escape');

  await partial.getByRole('button', { name: 'Run 3' }).click();
  await expect(page).toHaveURL(/\/dashboard\/batch\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('batch-item')).toHaveCount(3);
  await waitForBatchEnd(page);
  await expect(page.getByTestId('batch-counts')).toHaveText('3 done');
  await expect(balance(page)).toHaveText('0');
});

test('Cancel remaining gives back the ENERGY of the images that had not started', async ({ page }) => {
  await userWithEnergy(page, 40);
  for (let i = 0; i < 6; i++) await apiUpload(page, `big-${i + 1}.png`, await gradient(i));

  await page.goto('/dashboard/batch');
  await page.getByRole('button', { name: 'Choose from My Images' }).click();
  const dialog = page.getByRole('dialog', { name: 'Select Images' });
  for (let i = 0; i < 6; i++) await dialog.getByRole('checkbox', { name: new RegExp(`^Select big-${i + 1}\\.png`) }).click();
  await expect(dialog).toContainText('6 selected');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('chosen-image')).toHaveCount(6);
  await expect(page.getByTestId('batch-total')).toHaveText('12 ENERGY');

  await page.getByTestId('batch-run').click();
  await expect(page).toHaveURL(/\/dashboard\/batch\/[0-9a-f-]{36}$/);
  await expect(balance(page)).toHaveText('28');
  const cancel = page.getByRole('button', { name: 'Cancel remaining' });
  await expect(cancel).toBeEnabled();
  await cancel.click();

  const notice = page.getByTestId('batch-notice');
  await expect(notice).toHaveText(/^Cancelled, \d+ ENERGY refunded$/);
  const refunded = Number((await notice.textContent())!.match(/(\d+) ENERGY/)![1]);
  expect(refunded).toBeGreaterThan(0);

  await waitForBatchEnd(page);
  const cancelled = await page.locator('[data-testid="batch-item"][data-status="canceled"]').count();
  const failed = await page.locator('[data-testid="batch-item"][data-status="failed"]').count();
  expect(refunded).toBe(2 * cancelled);
  await expect(page.locator('[data-testid="batch-item"][data-status="canceled"]').first()).toContainText('2 ENERGY refunded');
  // Paid: the images that ran and did not fail.
  await expect(balance(page)).toHaveText(String(40 - 2 * (6 - cancelled - failed)));
  await expect(cancel).toBeDisabled();
});

test('a reload mid-batch finds the batch running on the server', async ({ page }) => {
  await userWithEnergy(page, 20);
  for (let i = 0; i < 3; i++) await apiUpload(page, `slow-${i + 1}.png`, await gradient(10 + i));
  await page.goto('/dashboard/images');
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  for (let i = 0; i < 3; i++) await page.getByRole('checkbox', { name: new RegExp(`^Select slow-${i + 1}\\.png`) }).click();
  await page.getByRole('button', { name: 'Process in batch' }).click();
  await expect(page.getByTestId('batch-total')).toHaveText('6 ENERGY');
  await page.getByTestId('batch-run').click();
  await expect(page).toHaveURL(/\/dashboard\/batch\/[0-9a-f-]{36}$/);
  const address = page.url();

  // Mid-run: one image is running with real progress.
  await expect(page.locator('[data-testid="batch-item"][data-status="running"]')).toHaveCount(1, { timeout: 60_000 });
  await expect(finishedLine(page)).toHaveText(/^\d of 3 finished$/);
  await shots(page, 'batch-running');
  await expectAccessible(page, 'running batch');

  await page.reload();
  expect(page.url()).toBe(address);
  await expect(page.getByRole('heading', { name: 'Batch · AI Image Upscaler' })).toBeVisible();
  await expect(page.getByTestId('batch-item')).toHaveCount(3);
  await waitForBatchEnd(page);
  await expect(page.getByTestId('batch-counts')).toHaveText('3 done');
  await expect(balance(page)).toHaveText('14');

  // The batch list leads back to it.
  await page.getByRole('link', { name: 'All batches' }).click();
  await expect(page).toHaveURL(/\/dashboard\/batch$/);
  await expect(page.getByTestId('recent-batch').first()).toContainText('AI Image Upscaler · 3 images');
});

test('an admin runs a batch for free', async ({ page }) => {
  await openAsAdmin(page);
  await expect(page.getByRole('button', { name: 'Batch Processing' })).toContainText('FREE (ADMIN)');
  await apiUpload(page, `admin-${Date.now()}.png`, await solid(32, 32, Date.now() % 256, 10, 10));
  await page.goto('/dashboard/batch');
  await expect(page.getByRole('radio', { name: /AI Image Restore/ })).toBeVisible();
  await expect(page.getByRole('radiogroup').getByText('FREE (ADMIN)')).toHaveCount(3);
  await page.getByRole('button', { name: 'Choose from My Images' }).click();
  const dialog = page.getByRole('dialog', { name: 'Select Images' });
  await dialog.getByRole('checkbox', { name: /^Select admin-/ }).first().click();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('batch-total')).toHaveText('FREE (ADMIN)');
  await page.getByRole('radio', { name: /AI Image Editor/ }).check();
  await page.getByLabel('Describe the changes (applied to every image)').fill('sepia');
  await page.getByTestId('batch-run').click();
  await waitForBatchEnd(page, 60_000);
  await expect(page.getByTestId('batch-energy')).toHaveText('0 ENERGY charged · 0 ENERGY refunded');
});

test('My Images counts every batch and loads older ones past the first ten', async ({ page }) => {
  await userWithEnergy(page, 40);
  const source = await apiUpload(page, 'many.png', await solid(16, 16, 90, 30, 160));
  for (let i = 0; i < 11; i++) {
    const res = await page.request.post('/api/batches', { data: { tool: 'fal-upscaler', settings: { scale: 2 }, items: [source] } });
    expect(res.status(), await res.text()).toBe(201);
  }

  await page.goto('/dashboard/images');
  await expect(page.getByTestId('count-batches')).toHaveText('11');
  await page.getByRole('tab', { name: /Batches/ }).click();
  await expect(page.getByTestId('batch-group')).toHaveCount(10);
  await page.getByRole('button', { name: 'Load older batches' }).click();
  await expect(page.getByTestId('batch-group')).toHaveCount(11);
  await expect(page.getByRole('button', { name: 'Load older batches' })).toHaveCount(0);
  await expectAccessible(page, 'batches tab, all pages');
  await shots(page, 'batches-tab');
});

test('a batch with WebP output: the Output section of the tool forms, and every result is a WebP file', async ({ page }) => {
  await userWithEnergy(page, 10);
  await apiUpload(page, 'out-a.png', await solid(24, 18, 200, 40, 40));
  await apiUpload(page, 'out-b.png', await solid(20, 20, 40, 200, 40));
  await page.goto('/dashboard/batch');
  await page.getByRole('radio', { name: /AI Image Upscaler/ }).check();
  await page.getByRole('button', { name: 'Choose from My Images' }).click();
  const dialog = page.getByRole('dialog', { name: 'Select Images' });
  await dialog.getByRole('checkbox', { name: /^Select out-a/ }).click();
  await dialog.getByRole('checkbox', { name: /^Select out-b/ }).click();
  await dialog.getByRole('button', { name: 'Done' }).click();

  const output = page.getByTestId('output-settings');
  await output.getByRole('button', { name: /Output/ }).click();
  await output.getByLabel('Format').click();
  await page.getByRole('option', { name: 'WebP' }).click();
  await expect(output).toContainText('WebP');
  await expectAccessible(page, 'batch form with output settings');
  await shots(page, 'batch-output');

  await page.getByTestId('batch-run').click();
  await waitForBatchEnd(page);
  const batchId = new URL(page.url()).pathname.split('/').pop()!;
  const list = await page.request.get(`/api/library?kind=image&batch=${batchId}`);
  const { items } = (await list.json()) as { items: { url: string; original_name: string }[] };
  expect(items).toHaveLength(2);
  for (const item of items) {
    const file = await page.request.get(item.url);
    expect(file.status()).toBe(200);
    expect((await sharp(await file.body()).metadata()).format, item.original_name).toBe('webp');
  }
});
