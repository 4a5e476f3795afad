import sharp from 'sharp';
import { test, expect, type Locator } from '@playwright/test';
import { adminApiForThisFile, openTool, runTool, screenshotsTo, uploadThroughApi } from './journey';
import { expectAccessible } from './axe';

/**
 * Share links (issue 26) in the browser: share a before/after pair from the image details, open it
 * in a fresh browser context without cookies and drag its slider, turn it off and reload (404).
 * Set SHARE_SHOTS=<dir> to keep screenshots.
 */
const shot = screenshotsTo('SHARE_SHOTS');
const { userWithEnergy } = adminApiForThisFile();

/** Creates a link in an open share panel, which offers before and after by default; the link's address. */
async function createBeforeAfterLink(panel: Locator): Promise<string> {
  await expect(panel.getByLabel('Show before and after')).toBeChecked();
  await panel.getByRole('button', { name: 'Create link' }).click();
  const link = panel.getByTestId('share-link');
  await expect(link).toHaveCount(1);
  await expect(link).toContainText('Before/after');
  const url = await link.getByLabel('Share link').inputValue();
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{24}$/);
  return url;
}

test('share a before/after pair, open it without an account and drag the slider; turn it off and it is gone', async ({ page, browser }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await userWithEnergy(page, 10);
  const png = await sharp({ create: { width: 48, height: 36, channels: 3, background: '#336655' } })
    .composite([{ input: await sharp({ create: { width: 20, height: 14, channels: 3, background: '#ffcc00' } }).png().toBuffer(), left: 6, top: 6 }])
    .png()
    .toBuffer();
  const up = await uploadThroughApi(page, { name: 'pair.png', mimeType: 'image/png', buffer: png });
  await runTool(page, 'fal-image-restore', { image_url: up.id, upscaling: 2 });

  await page.goto('/dashboard/images');
  await page.getByRole('button', { name: /^Open Image/ }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Share' }).click();
  const panel = dialog.getByTestId('share-panel');
  await panel.getByLabel('Link expires after').selectOption('1d');
  const url = await createBeforeAfterLink(panel);
  const link = panel.getByTestId('share-link');
  await shot(page, 'share-panel-1366');
  await expectAccessible(page, 'image detail with share panel');

  // A fresh browser: no cookies, no account.
  const stranger = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  try {
    const visitor = await stranger.newPage();
    const res = await visitor.goto(url);
    expect(res?.status()).toBe(200);
    expect((await stranger.cookies()).length).toBe(0);
    await expect(visitor.getByText('Made with PixelRush')).toBeVisible();
    const slider = visitor.getByTestId('share-compare');
    await expect(slider).toHaveValue('50');
    const box = (await slider.boundingBox())!;
    await visitor.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2);
    await visitor.mouse.down();
    await visitor.mouse.move(box.x + box.width * 0.15, box.y + box.height / 2, { steps: 8 });
    await visitor.mouse.up();
    await expect.poll(async () => Number(await slider.inputValue())).toBeLessThan(30);
    await shot(visitor, 'share-page-1366');
    await expectAccessible(visitor, 'public share page');
    await visitor.setViewportSize({ width: 390, height: 844 });
    await shot(visitor, 'share-page-390');
    await expectAccessible(visitor, 'public share page on a phone');

    // Turned off: the page and its files answer 404 at once.
    const picture = await visitor.locator('img').first().getAttribute('src');
    await link.getByRole('button', { name: 'Turn off' }).click();
    await expect(link).toHaveCount(0);
    const gone = await visitor.reload();
    expect(gone?.status()).toBe(404);
    await expect(visitor.getByText('This link has expired or was turned off by its owner.')).toBeVisible();
    expect((await stranger.request.get(new URL(picture!, url).toString(), { maxRedirects: 0 })).status()).toBe(404);
  } finally {
    await stranger.close();
  }
});

test("My Images' Shared links: a link with its views, turned off from the list, and its page answers 404", async ({ page, browser }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await userWithEnergy(page, 1);
  // Empty first: the tab says how to make a link.
  await page.goto('/dashboard/images');
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#884422' } }).png().toBuffer();
  const up = await uploadThroughApi(page, { name: 'shared-one.png', mimeType: 'image/png', buffer: png });
  await page.reload();
  const tab = page.getByRole('tab', { name: 'Shared links' });
  await tab.focus();
  await page.keyboard.press('Enter');
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No Shared Links Yet')).toBeVisible();

  // A link made through the API, opened twice by a stranger: the list shows 2 views.
  const made = await page.request.post('/api/shares', { data: { item_id: up.id, expires_in: 'never' } });
  expect(made.status(), await made.text()).toBe(201);
  const { url } = (await made.json()) as { url: string };
  const stranger = await browser.newContext();
  try {
    for (let i = 0; i < 2; i++) expect((await stranger.request.get(url)).status()).toBe(200);
    await page.reload();
    await page.getByRole('tab', { name: 'Shared links' }).click();
    const row = page.getByTestId('my-share-link');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('shared-one.png');
    await expect(row).toContainText('Single picture');
    await expect(row).toContainText('Never expires');
    await expect(row.getByTestId('share-views')).toHaveText('2');
    await expect(row.getByLabel('Share link of shared-one.png')).toHaveValue(url);
    await shot(page, 'shared-links-1366');
    await expectAccessible(page, 'My Images shared links');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: 'Shared links' }).scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 120);
    await shot(page, 'shared-links-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page, 'My Images shared links on a phone');

    // Turned off from the list by keyboard: marked at once, and the public page answers 404.
    await row.getByRole('button', { name: 'Turn off link of shared-one.png' }).focus();
    await page.keyboard.press('Enter');
    await expect(row).toContainText('Turned off');
    await expect(row.getByRole('button', { name: /Turn off/ })).toHaveCount(0);
    expect((await stranger.request.get(url)).status()).toBe(404);
  } finally {
    await stranger.close();
  }
});

test('share from the result screen: a too-large size is refused before the run, then the result is shared as a before/after pair and opens without an account', async ({ page, browser }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await userWithEnergy(page, 10);
  await openTool(page, 'fal-upscaler');
  const source = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#225588' } })
    .composite([{ input: await sharp({ create: { width: 12, height: 10, channels: 3, background: '#ffdd33' } }).png().toBuffer(), left: 4, top: 4 }])
    .png()
    .toBuffer();
  await page.locator('input[type="file"]').setInputFiles({ name: 'result-share.png', mimeType: 'image/png', buffer: source });
  await expect(page.getByTestId('source-name')).toHaveText('result-share.png', { timeout: 20_000 });

  // 40 px at 8x at most: 321 px wide is said before the run, and the run button waits.
  const output = page.getByTestId('output-settings');
  await output.getByRole('button', { name: /Output/ }).click();
  await output.getByLabel('Size').click();
  await page.getByRole('option', { name: 'Width in pixels' }).click();
  await output.getByLabel('Width (px)').fill('321');
  const tooLarge = 'That size is more than the Image Upscaler can make from this image (320 px wide at most). Choose a smaller size.';
  await expect(output.getByTestId('output-too-large')).toHaveText(tooLarge);
  await expect(output.getByLabel('Width (px)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('run-button')).toBeDisabled();
  await expect(page.getByTestId('validation-hint')).toHaveText(tooLarge);
  await output.getByTestId('output-too-large').scrollIntoViewIfNeeded();
  await shot(page, 'result-share-too-large-1366');
  await expectAccessible(page, 'upscaler with a size too large');
  await output.getByLabel('Width (px)').fill('120');
  await expect(output.getByTestId('output-too-large')).toHaveCount(0);

  await page.getByTestId('run-button').click();
  const result = page.getByTestId('tool-result');
  await expect(result).toBeVisible({ timeout: 150_000 });
  const share = result.getByTestId('share-result');
  await expect(share).toHaveAttribute('aria-expanded', 'false');
  await share.click();
  await expect(share).toHaveAttribute('aria-expanded', 'true');
  const panel = result.getByTestId('share-panel');
  const url = await createBeforeAfterLink(panel);
  await shot(page, 'result-share-1366');
  await expectAccessible(page, 'tool result with share panel');
  await page.setViewportSize({ width: 390, height: 844 });
  await panel.scrollIntoViewIfNeeded();
  await shot(page, 'result-share-390');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page, 'tool result with share panel on a phone');

  const stranger = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const visitor = await stranger.newPage();
    const res = await visitor.goto(url);
    expect(res?.status()).toBe(200);
    await expect(visitor.getByText('Made with PixelRush').first()).toBeVisible();
    await expect(visitor.getByTestId('share-compare')).toHaveValue('50');
    // Opened once: the owner's list says so.
    await page.setViewportSize({ width: 1366, height: 900 });
    await share.click();
    await share.click();
    await expect(panel.getByTestId('share-link')).toContainText('1 view');
  } finally {
    await stranger.close();
  }
});
