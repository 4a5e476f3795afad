import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { makeTestMedia, removeTestMedia, type TestMedia } from './fixtures/media';
import { newAccount, register, registerOrSignInAdmin, switchToRegister } from './helpers';

/**
 * axe on every screen a user or an admin can reach, at desktop and phone widths. The other
 * journeys call the same check on the screens they build up (runs, results, batches).
 */
const WIDTHS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
];

const USER_VIEWS: Array<{ path: string; title: string }> = [
  { path: '/dashboard/upscaler', title: 'AI Image Upscaler' },
  { path: '/dashboard/editor', title: 'AI Image Editor' },
  { path: '/dashboard/restore', title: 'AI Image Restore' },
  { path: '/dashboard/image-to-video', title: 'AI Image to Video' },
  { path: '/dashboard/video-upscaler', title: 'AI Video Upscaler' },
  { path: '/dashboard/images', title: 'Your Images' },
  { path: '/dashboard/videos', title: 'Your Videos' },
  { path: '/dashboard/referrals', title: 'Referral Management' },
  { path: '/dashboard/api-keys', title: 'API Keys' },
  { path: '/dashboard/account', title: 'Account' },
  { path: '/dashboard/batch', title: 'Batch Processing' },
];

let media: TestMedia;
test.beforeAll(async () => {
  media = await makeTestMedia();
});
test.afterAll(() => removeTestMedia(media));

async function upload(page: Page, file: string, kind: 'image' | 'video') {
  const res = await page.request.post(`/api/library/uploads?kind=${kind}`, {
    multipart: { file: { name: file.split('/').pop()!, mimeType: kind === 'image' ? 'image/png' : 'video/mp4', buffer: fs.readFileSync(file) } },
  });
  expect(res.status(), await res.text()).toBe(201);
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test(`signed-out screens (${size.name})`, async ({ page }) => {
      await page.goto('/');
      await expect(page.getByText('Built for creators and professionals')).toBeVisible();
      await expectAccessible(page, `landing ${size.name}`);
      await switchToRegister(page);
      await expectAccessible(page, `register ${size.name}`);
      await page.goto('/no/such/page');
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      await expectAccessible(page, `not found ${size.name}`);
    });

    test(`a user's screens (${size.name})`, async ({ page }) => {
      await register(page, newAccount());
      await expectAccessible(page, `dashboard ${size.name}`);

      await page.getByRole('button', { name: 'Buy ENERGY' }).first().click();
      await expect(page.getByRole('dialog', { name: 'Purchase ENERGY' })).toBeVisible();
      await expectAccessible(page, `purchase dialog ${size.name}`);
      await page.keyboard.press('Escape');

      await upload(page, media.png, 'image');
      await upload(page, media.mp4, 'video');
      for (const v of USER_VIEWS) {
        await page.goto(v.path);
        await expect(page.getByRole('heading', { name: v.title, exact: true })).toBeVisible();
        await expect(page.getByText(/Loading/)).toHaveCount(0);
        await expectAccessible(page, `${v.path} ${size.name}`);
      }

      // The image library's detail dialog and a tile's actions menu.
      await page.goto('/dashboard/images');
      await page.getByRole('button', { name: 'Open sunset.png' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectAccessible(page, `image detail ${size.name}`);
      await page.keyboard.press('Escape');
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
      await registerOrSignInAdmin(page);
      await expectAccessible(page, `admin dashboard grid ${size.name}`);
      await page.goto('/dashboard/admin');
      await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
      await expect(page.getByTestId('tool-fal-upscaler')).toBeVisible();
      await expectAccessible(page, `admin view ${size.name}`);
      await page.goto('/dashboard/referrals');
      await expect(page.getByRole('heading', { name: 'Referral Management' })).toBeVisible();
      await expectAccessible(page, `admin referrals ${size.name}`);
    });
  });
}
