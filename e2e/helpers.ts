import { expect, type Page } from '@playwright/test';

export const ADMIN_EMAIL = 'admin@e2e.test';
export const DEFAULT_PASSWORD = 'correct-horse-42';

/** A fresh e-mail for every call, so tests never collide on one server. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 8)}@e2e.test`;
}

export interface Account {
  name: string;
  email: string;
  password: string;
}

export function newAccount(overrides: Partial<Account> = {}): Account {
  return { name: 'Ada Lovelace', email: uniqueEmail(), password: DEFAULT_PASSWORD, ...overrides };
}

/** The landing page (signed out) is showing. */
export async function expectLanding(page: Page) {
  await expect(page.getByText('Built for creators and professionals')).toBeVisible();
}

/** The dashboard (signed in) is showing. */
export async function expectDashboard(page: Page) {
  await expect(page.getByRole('heading', { name: 'AI Tools', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
}

export async function switchToRegister(page: Page) {
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByLabel('Full name')).toBeVisible();
}

export interface RegisterForm extends Account {
  confirmPassword?: string;
  inviteCode?: string;
  acceptTerms?: boolean;
  confirmAge?: boolean;
}

/** Fills the register form (already in register mode) and submits it. */
export async function submitRegisterForm(page: Page, form: RegisterForm) {
  await page.getByLabel('Full name').fill(form.name);
  await page.getByLabel('Email').fill(form.email);
  await page.getByLabel('Password', { exact: true }).fill(form.password);
  await page.getByLabel('Confirm password').fill(form.confirmPassword ?? form.password);
  if (form.inviteCode !== undefined) await page.getByLabel('Invite code').fill(form.inviteCode);
  await page.getByLabel('I confirm that I am at least 18 years old').setChecked(form.confirmAge ?? true);
  await page.getByLabel('I agree to the Terms of Service').setChecked(form.acceptTerms ?? true);
  await page.getByRole('button', { name: 'Create Account' }).click();
}

/** Registers a new account from the landing page and waits for the dashboard. */
export async function register(page: Page, account: Account) {
  await page.goto('/');
  await expectLanding(page);
  await switchToRegister(page);
  await submitRegisterForm(page, account);
  await expectDashboard(page);
}

/**
 * Signs a new account up through the API, in the page's own cookie jar, and opens the dashboard:
 * for tests whose subject is not the sign-up form (auth.spec.ts drives the form itself). The form
 * took about two seconds of browser time per test.
 */
export async function signUp(page: Page, account: Account) {
  const res = await page.request.post('/api/auth/sign-up/email', { data: { name: account.name, email: account.email, password: account.password } });
  expect(res.ok(), `sign-up: ${await res.text()}`).toBeTruthy();
  await page.goto('/dashboard');
  await expectDashboard(page);
}

/** Signs in from the landing page and waits for the dashboard. */
export async function signIn(page: Page, account: Pick<Account, 'email' | 'password'>) {
  await page.goto('/');
  await expectLanding(page);
  await fillSignIn(page, account);
  await expectDashboard(page);
}

export async function fillSignIn(page: Page, account: Pick<Account, 'email' | 'password'>) {
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expectLanding(page);
}

/** The red error box above the form. */
export const formError = (page: Page) => page.getByRole('alert');

/**
 * The admin account (ADMIN_EMAILS=admin@e2e.test): registers it on first use
 * in a server run, signs in afterwards.
 */
export async function registerOrSignInAdmin(page: Page) {
  const admin = { name: 'Site Admin', email: ADMIN_EMAIL, password: DEFAULT_PASSWORD };
  await page.goto('/');
  await switchToRegister(page);
  await submitRegisterForm(page, admin);
  const taken = page.getByText('An account with this email already exists');
  await expect(page.getByRole('heading', { name: 'AI Tools', exact: true }).or(taken)).toBeVisible();
  if (await taken.isVisible()) await signIn(page, admin);
  await expectDashboard(page);
  return admin;
}
