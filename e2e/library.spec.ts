import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { makeTestMedia, removeTestMedia, type TestMedia } from './fixtures/media';
import { newAccount, signUp } from './helpers';
import { openAsAdmin } from './admin-helpers';
import { madeUpItemId, madeUpLibraryItem } from '../test/helpers/library-item';
import type { LibraryItemDto } from '../src/shared/library.schema';
import { UI_ONLY } from './screens';

/**
 * The media library in the browser (requirements §2 image and video galleries,
 * shared drop zones; §4 upload, pending video, delete; §5 upload rules;
 * §8 upload errors): real uploads through the drop zones, thumbnails and
 * posters, the detail dialog, downloads under the original name, deletes,
 * empty states, refusals, and a 2,000-item library that keeps the DOM small.
 */

const SHOTS = 'test-results/screens';
let media: TestMedia;

test.beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  media = await makeTestMedia();
});
test.afterAll(() => removeTestMedia(media));

const imageZone = (page: Page) => page.getByTestId('image-dropzone');
const videoZone = (page: Page) => page.getByTestId('video-dropzone');
const count = (page: Page, group: 'all' | 'generated' | 'uploaded') => page.getByTestId(`count-${group}`);

async function openImages(page: Page) {
  await page.getByRole('button', { name: 'My Images', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your Images' })).toBeVisible();
}

async function openVideos(page: Page) {
  await page.getByRole('button', { name: 'My Videos', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your Videos' })).toBeVisible();
}

/** A real drag and drop: a DataTransfer holding the files, dispatched like the browser does. */
async function dropFiles(page: Page, target: Locator, files: Array<{ path: string; name: string; type: string }>) {
  const payload = files.map((f) => ({ name: f.name, type: f.type, b64: fs.readFileSync(f.path).toString('base64') }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    return dt;
  }, payload);
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  return {
    drop: () => target.dispatchEvent('drop', { dataTransfer }),
  };
}

const bodyOverflow = (page: Page) => page.evaluate(() => getComputedStyle(document.body).overflow);

async function expectNoHorizontalScroll(page: Page) {
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await expect.poll(overflow).toBeLessThanOrEqual(0);
}

test('image gallery: empty, upload by input and by drag and drop, groups, detail, download, delete', async ({ page }) => {
  await signUp(page, newAccount());
  await openImages(page);
  await expect(page.getByText('No Images Yet')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/library-images-empty.png`, fullPage: true });

  // Upload through the drop zone's file input (the 'Choose image' path).
  await imageZone(page).locator('input[type=file]').setInputFiles(media.png);
  const sunset = page.getByRole('button', { name: 'Open sunset.png' });
  await expect(sunset).toBeVisible({ timeout: 30_000 });
  // The grid shows the WebP thumbnail, lazily, never the original.
  const thumb = sunset.locator('img');
  await expect(thumb).toHaveAttribute('loading', 'lazy');
  await expect(thumb).toHaveAttribute('src', /\/thumbs\/.+\.webp\?/);
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(count(page, 'all')).toHaveText('1');
  await expect(count(page, 'uploaded')).toHaveText('1');
  await expect(count(page, 'generated')).toHaveText('0');

  // A real drag and drop of two files: the drag-over state shows, only the first file is used.
  const drag = await dropFiles(page, imageZone(page), [
    { path: media.jpeg, name: 'forest.jpg', type: 'image/jpeg' },
    { path: media.png, name: 'second.png', type: 'image/png' },
  ]);
  await expect(imageZone(page)).toContainText('Drop to upload your image');
  await drag.drop();
  await expect(page.getByRole('button', { name: 'Open forest.jpg' })).toBeVisible({ timeout: 30_000 });
  await expect(count(page, 'all')).toHaveText('2');
  await expect(page.getByRole('button', { name: 'Open second.png' })).toHaveCount(0);

  // A dropped file that fails the checks is silently ignored (requirements §5): no error, nothing uploaded.
  // The zone counts the drops it has handled: once it has seen this one, nothing may have started.
  const dropsBefore = Number(await imageZone(page).getAttribute('data-drops'));
  const bad = await dropFiles(page, imageZone(page), [{ path: media.txt, name: 'notes.txt', type: 'text/plain' }]);
  await bad.drop();
  await expect(imageZone(page)).toHaveAttribute('data-drops', String(dropsBefore + 1));
  await expect(imageZone(page).getByRole('status')).toHaveCount(0);
  await expect(imageZone(page).locator('..').getByRole('alert')).toHaveCount(0);
  await expect(count(page, 'all')).toHaveText('2');

  // The Generated group is empty; the Uploaded group holds both.
  await page.getByRole('tab', { name: /Generated/ }).click();
  await expect(page.getByText('No Images Generated')).toBeVisible();
  await page.getByRole('tab', { name: /Uploaded/ }).click();
  await expect(page.getByRole('button', { name: 'Open forest.jpg' })).toBeVisible();
  await page.getByRole('tab', { name: /All/ }).click();
  await page.screenshot({ path: `${SHOTS}/library-images.png`, fullPage: true });

  // Detail dialog: image, name, type, created, size; page scroll locked; Escape closes it.
  await expect.poll(() => bodyOverflow(page)).not.toBe('hidden');
  await page.getByRole('button', { name: 'Open sunset.png' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'sunset.png' })).toBeVisible();
  await expect(dialog.getByText('image/png')).toBeVisible();
  await expect(dialog.getByText('Created')).toBeVisible();
  await expect(dialog.getByText('Size')).toBeVisible();
  await expect(dialog.getByRole('img', { name: 'sunset.png' })).toHaveAttribute('src', /\/api\/files\/(?!.*\/thumbs\/)/);
  await expect.poll(() => bodyOverflow(page)).toBe('hidden');
  await page.screenshot({ path: `${SHOTS}/library-image-detail.png` });

  // Download saves under the original name.
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'Download', exact: true }).click()]);
  expect(download.suggestedFilename()).toBe('sunset.png');

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect.poll(() => bodyOverflow(page)).not.toBe('hidden');
  // Escape closed the dialog only, not the gallery.
  await expect(page.getByRole('heading', { name: 'Your Images' })).toBeVisible();
  // Close returns focus to the tile that opened it.
  await page.getByRole('button', { name: 'Open sunset.png' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open sunset.png' })).toBeFocused();

  // Delete asks first, shows a spinner on that item, then it is gone and the counts follow.
  await page.getByRole('button', { name: 'Delete sunset.png' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this image?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('button', { name: 'Open sunset.png' })).toHaveCount(0);
  await expect(count(page, 'all')).toHaveText('1');
  await expect(count(page, 'uploaded')).toHaveText('1');

  // Phone width: two columns, no sideways scrolling.
  await imageZone(page)
    .locator('input[type=file]')
    .setInputFiles({ name: 'sunrise.png', mimeType: 'image/png', buffer: fs.readFileSync(media.png) });
  await expect(page.getByRole('button', { name: 'Open sunrise.png' })).toBeVisible({ timeout: 30_000 });
  await page.setViewportSize({ width: 390, height: 844 });
  const [a, b] = await Promise.all([
    page.getByRole('button', { name: 'Open sunrise.png' }).boundingBox(),
    page.getByRole('button', { name: 'Open forest.jpg' }).boundingBox(),
  ]);
  expect(Math.abs(a!.y - b!.y)).toBeLessThan(2);
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: `${SHOTS}/library-images-phone.png`, fullPage: true });
});

test('the upload button says why a file was refused: wrong content (the server 415) and too large', async ({ page }) => {
  await signUp(page, newAccount());
  await openImages(page);
  const zone = imageZone(page);
  const alert = page.getByRole('alert').filter({ hasText: 'Failed to upload image' });

  // Text named .png: the browser believes it, the server reads the bytes and refuses it.
  const refused = page.waitForResponse((r) => r.url().includes('/api/library/uploads') && r.request().method() === 'POST');
  await zone.locator('input[type=file]').setInputFiles(media.fakePng);
  expect((await refused).status()).toBe(415);
  await expect(alert).toContainText('Failed to upload image: Unsupported file type');
  await expect(alert).toContainText('notes.png');
  await page.screenshot({ path: `${SHOTS}/library-upload-refused.png` });
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await expect(alert).toHaveCount(0);

  // Too large is said before a byte is sent.
  await zone.locator('input[type=file]').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) });
  await expect(alert).toContainText('Failed to upload image: File is too large (max 10 MB)');

  // A video in the image zone is the wrong type.
  await zone.locator('input[type=file]').setInputFiles(media.mp4);
  await expect(alert).toContainText('Failed to upload image: Unsupported file type');
  await expect(page.getByText('No Images Yet')).toBeVisible();
});

test('video gallery: empty, upload, poster and m:ss, inline playback, download, delete', async ({ page }) => {
  await signUp(page, newAccount());
  await openVideos(page);
  await expect(page.getByText('No Videos Generated')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/library-videos-empty.png`, fullPage: true });

  await videoZone(page).locator('input[type=file]').setInputFiles(media.mp4);
  const tile = page.getByTestId('video-tile').filter({ hasText: 'clip.mp4' });
  await expect(tile).toBeVisible({ timeout: 60_000 });
  await expect(tile.getByTestId('duration')).toHaveText('0:03');
  const poster = tile.locator('img');
  await expect(poster).toHaveAttribute('src', /\/thumbs\/.+\.webp\?/);
  await expect(poster).toHaveAttribute('loading', 'lazy');
  await expect.poll(() => poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByText('1 video · 0 generated · 1 uploaded')).toBeVisible();

  // A tile click plays the video inline; Stop toggles back to the poster.
  await tile.getByRole('button', { name: 'Play clip.mp4' }).click();
  const video = tile.locator('video');
  await expect(video).toBeVisible();
  await expect(video).toHaveAttribute('preload', 'none');
  await expect(video).toHaveAttribute('src', /\.mp4\?/);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime > 0 || v.readyState >= 2), { timeout: 15_000 }).toBe(true);
  await page.screenshot({ path: `${SHOTS}/library-videos.png`, fullPage: true });
  await tile.getByRole('button', { name: 'Stop clip.mp4' }).click();
  await expect(video).toHaveCount(0);
  await expect(tile.getByRole('button', { name: 'Play clip.mp4' })).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent('download'), tile.getByRole('link', { name: 'Download clip.mp4' }).click()]);
  expect(download.suggestedFilename()).toBe('clip.mp4');

  // Share from the tile: a public link that plays without an account.
  await tile.getByRole('button', { name: 'Share clip.mp4' }).click();
  const shareDialog = page.getByRole('dialog', { name: 'clip.mp4' });
  await shareDialog.getByRole('button', { name: 'Create link' }).click();
  const shareUrl = await shareDialog.getByRole('textbox', { name: 'Share link' }).inputValue();
  expect(shareUrl).toMatch(/\/s\/[A-Za-z0-9_-]{22,}$/);
  await page.screenshot({ path: `${SHOTS}/library-video-share.png` });
  const publicPage = await page.context().browser()!.newPage();
  await publicPage.goto(shareUrl);
  await expect(publicPage.locator('video')).toHaveAttribute('src', /.+/);
  await publicPage.close();
  await page.keyboard.press('Escape');
  await expect(shareDialog).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: `${SHOTS}/library-videos-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  await tile.getByRole('button', { name: 'Delete clip.mp4' }).click();
  await page.getByRole('alertdialog', { name: 'Delete this video?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No Videos Generated')).toBeVisible();
  await expect(page.getByText('0 videos')).toBeVisible();
});

test('a video that is generating shows PENDING, then plays when its job ends (server events, no reload)', async ({ page }) => {
  test.setTimeout(240_000);
  // The admin runs tools for free; the run is real (local provider).
  await openAsAdmin(page);
  const up = await page.request.post('/api/library/uploads?kind=image', {
    multipart: { file: { name: 'still.png', mimeType: 'image/png', buffer: fs.readFileSync(media.png) } },
  });
  expect(up.status(), await up.text()).toBe(201);
  const still = (await up.json()) as { id: string };

  await openVideos(page);
  const prompt = `library live ${Date.now().toString(36)}`;
  const run = await page.request.post('/functions/v1/fal-image-to-video', {
    headers: { Prefer: 'respond-async' },
    data: { image_url: still.id, prompt, num_frames: 81, frames_per_second: 16, resolution: '480p', interpolator_model: 'none' },
  });
  expect(run.status(), await run.text()).toBe(202);

  const tile = page.getByTestId('video-tile').filter({ hasText: prompt });
  await expect(tile.getByText('PENDING')).toBeVisible({ timeout: 60_000 });
  await expect(tile.getByText(/Generating\.\.\./)).toBeVisible();
  await expect(tile.getByRole('button', { name: /^Retry / })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/library-video-generating.png` });

  // The job's end event brings the finished video in: playable, with its poster and length.
  await expect(tile.getByRole('button', { name: /^Play / })).toBeVisible({ timeout: 180_000 });
  await expect(tile.getByText('PENDING')).toHaveCount(0);
  await expect(tile.getByTestId('duration')).toHaveText('0:05');
  await expect(tile.locator('img')).toHaveAttribute('src', /\/thumbs\//);
});

// ---------------------------------------------------------------- fakes

const DOT = 'data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==';

function fakeItem(i: number, kind: 'image' | 'video', extra: Partial<LibraryItemDto> = {}) {
  const id = madeUpItemId(i);
  const video = kind === 'video';
  return madeUpLibraryItem(i, {
    filename: `${id}.${video ? 'mp4' : 'png'}`,
    original_name: video ? `clip-${i}.mp4` : `picture-${i}.png`,
    file_size: 1000 + i,
    content_type: video ? 'video/mp4' : 'image/png',
    storage_path: `u/${id}`,
    is_generated: true,
    generation_type: video ? 'fal-image-to-video' : 'fal-image-editor',
    duration_seconds: video ? 65 : null,
    kind,
    url: DOT,
    download_url: DOT,
    thumbnail_url: DOT,
    ...extra,
  });
}

/** Serves GET /api/library and /api/library/counts from memory (pages of `pageSize`, cursor = offset). */
async function fakeLibrary(page: Page, data: { images?: unknown[]; videos?: unknown[]; pageSize?: number }) {
  const images = (data.images ?? []) as Array<{ is_generated: boolean }>;
  const videos = (data.videos ?? []) as Array<{ is_generated: boolean }>;
  const group = (list: Array<{ is_generated: boolean }>) => ({
    generated: list.filter((i) => i.is_generated).length,
    uploaded: list.filter((i) => !i.is_generated).length,
    total: list.length,
  });
  await page.route(/\/api\/library(\?|\/counts)/, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.endsWith('/counts')) {
      const upload_max_bytes = { image: 10 * 1024 * 1024, video: 100 * 1024 * 1024 };
      return route.fulfill({ json: { images: group(images), videos: group(videos), storage: { used_bytes: 0, quota_bytes: null }, upload_max_bytes } });
    }
    const list = url.searchParams.get('kind') === 'video' ? videos : images;
    const size = data.pageSize ?? Number(url.searchParams.get('limit') ?? 48);
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const next = start + size < list.length ? String(start + size) : null;
    return route.fulfill({ json: { items: list.slice(start, start + size), next_cursor: next } });
  });
}

test('2,000 images: infinite scroll pages through all of them and the DOM stays small', async ({ page }) => {
  await signUp(page, newAccount());
  const N = 2000;
  await fakeLibrary(page, { images: Array.from({ length: N }, (_, i) => fakeItem(i, 'image')), pageSize: 200 });
  await openImages(page);
  await expect(count(page, 'all')).toHaveText('2,000');
  await expect(page.getByRole('button', { name: 'Open picture-0.png' })).toBeVisible();

  const started = Date.now();
  const end = page.getByText(`All ${N.toLocaleString('en-US')} shown.`);
  for (let i = 0; i < 200 && !(await end.isVisible()); i++) {
    await page.mouse.wheel(0, 5000);
    await page.waitForTimeout(50);
  }
  await expect(end).toBeVisible();
  console.log(`library: scrolled through ${N} fake images in ${Date.now() - started} ms`);
  await page.keyboard.press('End');
  await end.scrollIntoViewIfNeeded();
  await expect(page.getByRole('button', { name: `Open picture-${N - 1}.png` })).toBeVisible();
  // Windowed: only the rows near the viewport exist, whatever the count.
  const tiles = await page.getByTestId('image-tile').count();
  expect(tiles).toBeGreaterThan(0);
  expect(tiles).toBeLessThan(120);
  // Screen readers still hear the real size and place.
  await expect(page.getByRole('listitem').last()).toHaveAttribute('aria-setsize', String(N));
});

// The library API is stubbed here (pending and failed videos are hard to produce on demand):
// this checks how the page renders the states the API describes.
test('groups and states as the library API describes them (stubbed API): No Images Uploaded, pending and failed videos with retry', UI_ONLY, async ({ page }) => {
  await signUp(page, newAccount());
  await fakeLibrary(page, {
    images: [fakeItem(1, 'image'), fakeItem(2, 'image')],
    videos: [
      fakeItem(10, 'video', {
        status: 'pending',
        storage_path: 'u/pending/10.mp4',
        url: undefined,
        download_url: undefined,
        thumbnail_url: undefined,
        original_name: 'fal-image-to-video: a cat surfing',
        job_id: '10000000-0000-4000-8000-000000000010',
      }),
      fakeItem(11, 'video', {
        status: 'failed',
        url: undefined,
        download_url: undefined,
        original_name: 'fal-image-to-video: neon city',
        error: 'The run took too long and was stopped. Your ENERGY has been refunded.',
        job_id: '10000000-0000-4000-8000-000000000011',
      }),
      fakeItem(12, 'video'),
    ],
  });
  await page.route(/\/api\/library\/[^/]+\/retry$/, (route) =>
    route.fulfill({ status: 503, json: { error: 'Retry is not available right now', code: 'unavailable' } }),
  );

  await openImages(page);
  await expect(count(page, 'generated')).toHaveText('2');
  await page.getByRole('tab', { name: /Uploaded/ }).click();
  await expect(page.getByText('No Images Uploaded')).toBeVisible();
  await page.getByRole('button', { name: 'Back to Tools' }).click();

  await openVideos(page);
  const pending = page.getByTestId('video-tile').filter({ hasText: 'a cat surfing' });
  await expect(pending.getByText('PENDING')).toBeVisible();
  await expect(pending.getByText('Generating...')).toBeVisible();
  // Not playable, nothing to download yet.
  await expect(pending.getByRole('button', { name: /^Play / })).toHaveCount(0);
  await expect(pending.getByRole('link', { name: /^Download / })).toHaveCount(0);

  const failed = page.getByTestId('video-tile').filter({ hasText: 'neon city' });
  await expect(failed.getByText('FAILED')).toBeVisible();
  await expect(failed.getByText('The run took too long and was stopped.', { exact: false })).toBeVisible();

  await expect(page.getByTestId('video-tile').filter({ hasText: 'clip-12.mp4' }).getByTestId('duration')).toHaveText('1:05');
  await page.screenshot({ path: `${SHOTS}/library-videos-pending.png`, fullPage: true });

  // Retry errors are shown.
  await pending.getByRole('button', { name: /^Retry / }).click();
  await expect(page.getByText('Retry is not available right now')).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('tiles show their name and offer open, download, use in a tool and delete', async ({ page }) => {
    await signUp(page, newAccount());
    const res = await page.request.post('/api/library/uploads?kind=image', {
      multipart: { file: { name: 'sunset.png', mimeType: 'image/png', buffer: fs.readFileSync(media.png) } },
    });
    expect(res.status()).toBe(201);
    await page.goto('/dashboard/images');
    const tile = page.getByTestId('image-tile').first();
    await expect(tile.getByText('sunset.png', { exact: true })).toBeVisible();
    // Drop zones speak of tapping, not dragging, on touch screens.
    await expect(imageZone(page).getByText('Tap to choose an image')).toBeVisible();
    await expect(imageZone(page).getByText(/Drag and drop/)).toBeHidden();

    const actions = tile.getByRole('button', { name: 'Actions for sunset.png' });
    await expect(actions).toBeVisible();
    await actions.click();
    const menu = page.getByRole('menu');
    for (const name of ['Open', 'Download', 'Use in Image Upscaler', 'Use in Image Editor', 'Use in Image Restore', 'Delete']) {
      await expect(menu.getByRole('menuitem', { name })).toBeVisible();
    }
    await page.screenshot({ path: `${SHOTS}/library-phone-actions.png` });
    const download = page.waitForEvent('download');
    await menu.getByRole('menuitem', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toBe('sunset.png');

    await actions.click();
    await page.getByRole('menuitem', { name: 'Use in Image Upscaler' }).click();
    await expect(page).toHaveURL(/\/dashboard\/upscaler$/);
    await expect(page.getByTestId('source-name')).toHaveText('sunset.png');
    await expect(page.getByTestId('run-button')).toContainText('Upscale');
  });
});

test('the same photo uploaded for two tools is stored once and reused', async ({ page }) => {
  await signUp(page, newAccount());
  for (const view of ['/dashboard/upscaler', '/dashboard/restore']) {
    await page.goto(view);
    await page.getByRole('tab', { name: 'Upload' }).click();
    await page.locator('input[type="file"]').setInputFiles(media.png);
    await expect(page.getByTestId('source-name')).toHaveText('sunset.png', { timeout: 20_000 });
  }
  const list = (await (await page.request.get('/api/library?kind=image')).json()) as { items: Array<{ id: string; storage_path: string }> };
  expect(list.items).toHaveLength(1);
  await page.goto('/dashboard/images');
  await expect(count(page, 'uploaded')).toHaveText('1');
  await expect(page.getByTestId('image-tile')).toHaveCount(1);

  // Under another name it is a second entry on the same stored file; deleting one keeps the other whole.
  const copy = await page.request.post('/api/library/uploads?kind=image', {
    multipart: { file: { name: 'sunset-copy.png', mimeType: 'image/png', buffer: fs.readFileSync(media.png) } },
  });
  expect(copy.status()).toBe(201);
  const second = (await copy.json()) as { id: string; storage_path: string };
  expect(second.storage_path).toBe(list.items[0]!.storage_path);
  expect((await page.request.delete(`/api/library/${list.items[0]!.id}`)).status()).toBe(200);
  const file = await page.request.get(`/api/library/${second.id}/download`);
  expect(file.status()).toBe(200);
  expect((await file.body()).length).toBeGreaterThan(100);
});
