import fs from 'node:fs';
import path from 'node:path';
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN_EMAIL, DEFAULT_PASSWORD, newAccount, type Account } from './helpers';

const BASE_URL = process.env.E2E_BASE_URL || `http://127.0.0.1:${process.env.E2E_PORT || '3100'}`;

/**
 * The admin's API session for one spec file (signed up on first use, signed in after), opened
 * before its tests and closed after them. Journeys use it to give a fresh account ENERGY without
 * walking the admin screens each time.
 */
export function adminApiForThisFile() {
  let admin: APIRequestContext;
  test.beforeAll(async ({ playwright }) => {
    admin = await playwright.request.newContext({ baseURL: BASE_URL });
    const signUp = await admin.post('/api/auth/sign-up/email', { data: { name: 'Site Admin', email: ADMIN_EMAIL, password: DEFAULT_PASSWORD } });
    if (!signUp.ok()) {
      const signIn = await admin.post('/api/auth/sign-in/email', { data: { email: ADMIN_EMAIL, password: DEFAULT_PASSWORD } });
      expect(signIn.ok(), await signIn.text()).toBeTruthy();
    }
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
      const found = await admin.get(`/api/admin/users?query=${encodeURIComponent(account.email)}`);
      const { items } = (await found.json()) as { items: { id: string; email: string }[] };
      const user = items.find((u) => u.email === account.email)!;
      const granted = await admin.post(`/api/admin/users/${user.id}/grant`, { data: { amount: energy } });
      expect(granted.ok(), await granted.text()).toBeTruthy();
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
