import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { newAccount, signUp, switchToRegister } from './helpers';
import { uploadThroughApi } from './journey';
import type { TestMedia } from './fixtures/media';

/**
 * One walk through every screen, signed out, as a user and as an admin. The accessibility and the
 * quiet-console journeys both take it and judge each stop their own way: `look(name)` is called
 * at every stop once its screen has drawn, and may leave the page as it found it.
 */
type Look = (stop: string) => Promise<void>;

/**
 * Tags a browser test that checks only the browser's side: axe, the console, layout, bytes on the
 * wire, static files, client-side form checks, or how the page shows answers the test itself
 * stubs. Its outcome cannot depend on which database the server uses, so CI runs it on the first
 * database only (scripts/test.mjs, TEST_DATABASE_ONLY). A test whose assertions read what the
 * server stored is never tagged.
 */
export const UI_ONLY = { tag: '@ui-only' };

const WIDTHS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
];

/** Declares a spec's tests once at desktop and once at phone width, each in a block that sets the viewport. */
export function atEachWidth(tests: (size: { name: string; width: number }) => void) {
  for (const size of WIDTHS) {
    test.describe(`at ${size.width} px`, () => {
      test.use({ viewport: { width: size.width, height: size.height } });
      tests(size);
    });
  }
}

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

const landing = (page: Page) => expect(page.getByText('Built for creators and professionals')).toBeVisible();

/** The landing page, the register form, the pages anyone may open, and the not-found page. */
export async function walkSignedOutScreens(page: Page, look: Look) {
  await page.goto('/');
  await landing(page);
  await look('landing');
  await switchToRegister(page);
  // The Terms of Service are part of the sign-up form.
  await expect(page.getByText('I agree to the Terms of Service')).toBeVisible();
  await look('register');
  await page.goto('/dashboard/account');
  await landing(page);
  await look('signed-out dashboard address');
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
  await look('privacy');
  await page.goto('/reset-password');
  await look('reset password');
  await page.goto('/verify-email');
  await look('verify email');
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await look('not found');
}

/**
 * A new user's screens: the dashboard, the purchase dialog, every view by its address with an
 * image and a video in the library, and the image's detail dialog (closed again at the end).
 */
export async function walkUserScreens(page: Page, media: TestMedia, look: Look) {
  await signUp(page, newAccount());
  await look('dashboard');
  await page.getByRole('button', { name: 'Buy ENERGY' }).first().click();
  await expect(page.getByRole('dialog', { name: 'Purchase ENERGY' })).toBeVisible();
  await look('purchase dialog');
  await page.keyboard.press('Escape');

  await uploadThroughApi(page, { name: path.basename(media.png), mimeType: 'image/png', buffer: fs.readFileSync(media.png) });
  await uploadThroughApi(page, { name: path.basename(media.mp4), mimeType: 'video/mp4', buffer: fs.readFileSync(media.mp4) });
  for (const v of USER_VIEWS) {
    await page.goto(v.path);
    await expect(page.getByRole('heading', { name: v.title, exact: true })).toBeVisible();
    await expect(page.getByText(/Loading/)).toHaveCount(0);
    await look(v.path);
  }

  await page.goto('/dashboard/images');
  await page.getByRole('button', { name: 'Open sunset.png' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await look('image detail');
  await page.keyboard.press('Escape');
}

/** The admin's screens (signed in already): the dashboard grid, the admin view and each of its tabs, and the referral management. */
export async function walkAdminScreens(page: Page, look: Look) {
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'AI Tools', exact: true })).toBeVisible();
  await look('admin dashboard grid');
  await page.goto('/dashboard/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByTestId('tool-fal-upscaler')).toBeVisible();
  await look('admin view');
  for (const tab of ['Jobs', 'Purchases', 'Change history', 'Accounts']) {
    await page.getByRole('tab', { name: tab }).click();
    await look(`admin ${tab} tab`);
  }
  await page.goto('/dashboard/referrals');
  await expect(page.getByRole('heading', { name: 'Referral Management' })).toBeVisible();
  await look('admin referrals');
}
