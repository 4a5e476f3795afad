import fs from 'node:fs';
import path from 'node:path';
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { adminApi, findUserId } from './admin-helpers';
import { newAccount, type Account } from './helpers';

/**
 * The admin's API session for one spec file, opened before its tests and closed after them.
 * Journeys use it to give a fresh account ENERGY without walking the admin screens each time.
 */
export function adminApiForThisFile() {
  let admin: APIRequestContext;
  test.beforeAll(async () => {
    admin = await adminApi();
  });
  test.afterAll(async () => {
    await admin?.dispose();
  });

  return {
    /** A new account signed in on the page's own session, holding `energy` ENERGY. */
    async userWithEnergy(page: Page, energy: number): Promise<Account> {
      const account = newAccount();
      const res = await page.request.post('/api/auth/sign-up/email', { data: { name: account.name, email: account.email, password: account.password } });
      expect(res.ok(), await res.text()).toBeTruthy();
      if (energy > 0) {
        const granted = await admin.post(`/api/admin/users/${await findUserId(admin, account.email)}/grant`, { data: { amount: energy } });
        expect(granted.ok(), await granted.text()).toBeTruthy();
      }
      return account;
    },
  };
}

/** Screenshots kept only when the named variable gives a folder (for looking at a journey by eye). */
export function screenshotsTo(envVar: string, opts: { fullPage?: boolean } = {}) {
  const dir = process.env[envVar];
  return async (page: Page, name: string) => {
    if (!dir) return;
    fs.mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: opts.fullPage ?? false });
  };
}

/** A tool run in the page's own session (the real server and local models), waiting for its result's library item. */
export async function runTool(page: Page, endpoint: string, body: Record<string, unknown>): Promise<string> {
  const res = await page.request.post(`/functions/v1/${endpoint}`, { data: body, timeout: 170_000 });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).library_item_id as string;
}

/** Opens a tool from the dashboard grid (going to the same address again keeps the open view, like a reload: back to the grid first). */
export async function openTool(page: Page, view: string) {
  await page.goto('/dashboard');
  const card = page.locator(`[data-card="${view}"]`);
  const back = page.getByRole('button', { name: 'Back to Tools' });
  await expect(card.or(back)).toBeVisible();
  if (await back.isVisible()) await back.click();
  await card.click();
  await expect(page.locator('#tool-title')).toBeVisible();
}

/** A file put in the library through the API on the page's own session; the library item. */
export async function uploadThroughApi(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<{ id: string; original_name: string }> {
  const kind = file.mimeType.startsWith('video/') ? 'video' : 'image';
  const res = await page.request.post(`/api/library/uploads?kind=${kind}`, { multipart: { file } });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}
