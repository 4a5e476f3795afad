import { expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN_EMAIL, DEFAULT_PASSWORD, expectDashboard } from './helpers';

/**
 * Helpers for the admin, payments and referrals journeys. The admin account
 * (ADMIN_EMAILS=admin@e2e.test) can be registered once per server run, so
 * everything here signs in when it already exists and registers otherwise.
 */
export const ADMIN = { name: 'Site Admin', email: ADMIN_EMAIL, password: DEFAULT_PASSWORD };

const baseURL = () => process.env.E2E_BASE_URL || `http://127.0.0.1:${process.env.E2E_PORT || '3100'}`;

/** An API client signed in as the admin (sign in, or sign up on first use). */
export async function adminApi(): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL: baseURL() });
  const signIn = await api.post('/api/auth/sign-in/email', { data: { email: ADMIN.email, password: ADMIN.password } });
  if (!signIn.ok()) {
    const signUp = await api.post('/api/auth/sign-up/email', {
      data: { name: ADMIN.name, email: ADMIN.email, password: ADMIN.password },
    });
    expect(signUp.ok(), `admin sign-up: ${await signUp.text()}`).toBeTruthy();
  }
  return api;
}

/** Signs the page's session in as the admin with the API session's cookie, without showing a page. */
export async function signInAsAdmin(page: Page) {
  const api = await adminApi();
  const state = await api.storageState();
  await api.dispose();
  await page.context().addCookies(state.cookies);
}

/** Signs the page in as the admin, then opens the dashboard. */
export async function openAsAdmin(page: Page) {
  await signInAsAdmin(page);
  await page.goto('/dashboard');
  await expectDashboard(page);
  await expect(page.getByRole('heading', { name: 'Admin Controls' })).toBeVisible();
}

export async function setReferralOnly(api: APIRequestContext, value: boolean) {
  const res = await api.put('/api/settings/referral', { data: { is_referral_only: value } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

export async function findUserId(api: APIRequestContext, email: string): Promise<string> {
  const res = await api.get(`/api/admin/users?query=${encodeURIComponent(email)}`);
  expect(res.ok(), await res.text()).toBeTruthy();
  const { items } = (await res.json()) as { items: { id: string; email: string }[] };
  const user = items.find((u) => u.email === email);
  expect(user, `user ${email}`).toBeTruthy();
  return user!.id;
}

export async function setRole(api: APIRequestContext, email: string, role: 'user' | 'vip' | 'admin') {
  const id = await findUserId(api, email);
  const res = await api.post(`/api/admin/users/${id}/role`, { data: { role } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

export async function updatePricing(api: APIRequestContext, body: Record<string, unknown>) {
  const res = await api.post('/functions/v1/admin-update-pricing', { data: body });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** Pays on the built-in test checkout page with the test card, and waits for the success page. */
export async function payWithTestCard(page: Page) {
  await page.waitForURL(/\/checkout\/test\//);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await page.waitForURL(/\/success\?session_id=/);
}

/** Screenshot at desktop width and at phone width (390 px), full page. */
export async function screens(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.screenshot({ path: `test-results/screens/${name}-desktop.png`, fullPage });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(150);
  await page.screenshot({ path: `test-results/screens/${name}-phone.png`, fullPage });
  await page.setViewportSize(size);
}
