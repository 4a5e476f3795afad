import fs from 'node:fs';
import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { makeTestMedia, removeTestMedia, type TestMedia } from './fixtures/media';
import { ADMIN_EMAIL, DEFAULT_PASSWORD, newAccount, register, switchToRegister } from './helpers';

/**
 * A quiet app: a walk through every screen, signed out, as a user and as an admin, at desktop and
 * phone widths, with a listener that fails the walk on any console error or warning and on any
 * uncaught exception. A newcomer opening the developer tools sees nothing to worry about: not
 * even a signed-out page asking who is signed in and being told "401".
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

/** The addresses this walk opens knowing that no page lives there. */
const NOT_A_PAGE = /^\/no\/such\/page$/;

/** Every console error or warning and every uncaught exception on the page, as text. */
function listen(page: Page): string[] {
  const noise: string[] = [];
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error' || msg.type() === 'warning') {
      const where = msg.location().url ? ` (${msg.location().url})` : '';
      // An unknown address is answered 404 on purpose (issue 24: paths that are not pages are not
      // 200), and Chromium reports that status of the document itself; nothing else may show.
      if (msg.location().url === page.url() && /status of 404/.test(msg.text()) && NOT_A_PAGE.test(new URL(page.url()).pathname)) return;
      noise.push(`${msg.type()} on ${page.url()}: ${msg.text()}${where}`);
    }
  });
  page.on('pageerror', (err) => noise.push(`uncaught on ${page.url()}: ${err.message}`));
  return noise;
}

/** Lets late requests (profile, counts, live updates) answer before the page is judged. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
}

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

    test(`signed-out screens log nothing (${size.name})`, async ({ page }) => {
      const noise = listen(page);
      await page.goto('/');
      await expect(page.getByText('Built for creators and professionals')).toBeVisible();
      await settle(page);
      await switchToRegister(page);
      // The Terms of Service are part of the sign-up form.
      await expect(page.getByText('I agree to the Terms of Service')).toBeVisible();
      await settle(page);
      await page.goto('/dashboard/account');
      await expect(page.getByText('Built for creators and professionals')).toBeVisible();
      await settle(page);
      await page.goto('/privacy');
      await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
      await settle(page);
      await page.goto('/reset-password');
      await settle(page);
      await page.goto('/verify-email');
      await settle(page);
      await page.goto('/no/such/page');
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      await settle(page);
      expect(noise).toEqual([]);
    });

    test(`a user's screens log nothing (${size.name})`, async ({ page }) => {
      const noise = listen(page);
      await register(page, newAccount());
      await settle(page);

      await page.getByRole('button', { name: 'Buy ENERGY' }).first().click();
      await expect(page.getByRole('dialog', { name: 'Purchase ENERGY' })).toBeVisible();
      await settle(page);
      await page.keyboard.press('Escape');

      await upload(page, media.png, 'image');
      await upload(page, media.mp4, 'video');
      for (const v of USER_VIEWS) {
        await page.goto(v.path);
        await expect(page.getByRole('heading', { name: v.title, exact: true })).toBeVisible();
        await settle(page);
      }

      await page.goto('/dashboard/images');
      await page.getByRole('button', { name: 'Open sunset.png' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await settle(page);
      await page.keyboard.press('Escape');
      await page.getByRole('tab', { name: /Batches/ }).click();
      await settle(page);

      // Client-side moves between screens, as a person clicks through them.
      await page.getByRole('button', { name: 'Back to Tools' }).click();
      await expect(page.getByRole('heading', { name: 'AI Tools', exact: true })).toBeVisible();
      await settle(page);

      await page.goto('/privacy');
      await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
      await settle(page);
      await page.goto('/success');
      await settle(page);
      await page.goto('/dashboard/no-such-view');
      await settle(page);
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Sign Out' }).click();
      await expect(page.getByText('Built for creators and professionals')).toBeVisible();
      await settle(page);
      await page.goto('/no/such/page');
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      await settle(page);
      expect(noise).toEqual([]);
    });

    test(`an admin's screens log nothing (${size.name})`, async ({ page }) => {
      // Registering an account that exists answers 409 (and the browser logs it): the admin's
      // account is made or opened without the page, then the walk starts signed in.
      const admin = { name: 'Site Admin', email: ADMIN_EMAIL, password: DEFAULT_PASSWORD };
      const made = await page.request.post('/api/auth/sign-up/email', {
        data: { ...admin, confirmPassword: admin.password, acceptTerms: true, confirmAge: true },
      });
      if (made.status() !== 200) {
        expect(made.status()).toBe(409);
        expect((await page.request.post('/api/auth/sign-in/email', { data: admin })).status()).toBe(200);
      }
      const noise = listen(page);
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { name: 'AI Tools', exact: true })).toBeVisible();
      await settle(page);
      await page.goto('/dashboard/admin');
      await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
      await settle(page);
      for (const tab of ['Jobs', 'Purchases', 'Change history', 'Accounts']) {
        await page.getByRole('tab', { name: tab }).click();
        await settle(page);
      }
      await page.goto('/dashboard/referrals');
      await expect(page.getByRole('heading', { name: 'Referral Management' })).toBeVisible();
      await settle(page);
      expect(noise).toEqual([]);
    });
  });
}
