import sharp from 'sharp';
import { test, expect } from '@playwright/test';
import { adminApiForThisFile, runTool, screenshotsTo } from './journey';
import { expectAccessible } from './axe';

/**
 * Share links (issue 26) in the browser: share a before/after pair from the image details, open it
 * in a fresh browser context without cookies and drag its slider, turn it off and reload (404).
 * Set SHARE_SHOTS=<dir> to keep screenshots.
 */
const shot = screenshotsTo('SHARE_SHOTS');
const { userWithEnergy } = adminApiForThisFile();

test('share a before/after pair, open it without an account and drag the slider; turn it off and it is gone', async ({ page, browser }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await userWithEnergy(page, 10);
  const png = await sharp({ create: { width: 48, height: 36, channels: 3, background: '#336655' } })
    .composite([{ input: await sharp({ create: { width: 20, height: 14, channels: 3, background: '#ffcc00' } }).png().toBuffer(), left: 6, top: 6 }])
    .png()
    .toBuffer();
  const up = await page.request.post('/api/library/uploads?kind=image', { multipart: { file: { name: 'pair.png', mimeType: 'image/png', buffer: png } } });
  expect(up.status()).toBe(201);
  await runTool(page, 'fal-image-restore', { image_url: (await up.json()).id, upscaling: 2 });

  await page.goto('/dashboard/images');
  await page.getByRole('button', { name: /^Open Image/ }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Share' }).click();
  const panel = dialog.getByTestId('share-panel');
  await expect(panel.getByLabel('Show before and after')).toBeChecked();
  await panel.getByLabel('Link expires after').selectOption('1d');
  await panel.getByRole('button', { name: 'Create link' }).click();
  const link = panel.getByTestId('share-link');
  await expect(link).toHaveCount(1);
  await expect(link).toContainText('Before/after');
  const url = await link.getByLabel('Share link').inputValue();
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{24}$/);
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
  const up = await page.request.post('/api/library/uploads?kind=image', {
    multipart: { file: { name: 'shared-one.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 40, height: 30, channels: 3, background: '#884422' } }).png().toBuffer() } },
  });
  expect(up.status()).toBe(201);
  await page.reload();
  const tab = page.getByRole('tab', { name: 'Shared links' });
  await tab.focus();
  await page.keyboard.press('Enter');
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No Shared Links Yet')).toBeVisible();

  // A link made through the API, opened twice by a stranger: the list shows 2 views.
  const made = await page.request.post('/api/shares', { data: { item_id: (await up.json()).id, expires_in: 'never' } });
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
