import { expect, test } from '@playwright/test';
import { FIRST_PAGES, fileList, transfer, type FirstPage } from '../bench/transfer/measure';
import { newAccount } from './helpers';
import { UI_ONLY } from './screens';

/**
 * Issue 24's JavaScript budgets for the first pages (decision 032), held on every test run: the
 * landing page (signed out) and the dashboard (signed in) each download at most their budget of
 * JavaScript, counted as the server sends it (brotli), with the bench's own measure
 * (`npm run bench -- transfer`). A screen's code pulled into the entry, or a library loaded with a
 * page instead of when first used, shows here.
 */
test('the landing page and the dashboard stay within their JavaScript budgets', UI_ONLY, async ({ browser, baseURL }) => {
  const base = baseURL!;
  const signedOut = await browser.newContext({ baseURL: base });
  const signedIn = await browser.newContext({ baseURL: base });
  const account = newAccount();
  const signUp = await signedIn.request.post('/api/auth/sign-up/email', { data: { name: account.name, email: account.email, password: account.password } });
  expect(signUp.ok(), await signUp.text()).toBe(true);

  const measured: Record<FirstPage, Awaited<ReturnType<typeof transfer>>> = {
    landing: await transfer(signedOut, base, 'landing'),
    dashboard: await transfer(signedIn, base, 'dashboard'),
  };
  for (const name of Object.keys(FIRST_PAGES) as FirstPage[]) {
    const { js } = measured[name];
    const budget = FIRST_PAGES[name].jsBudget;
    test.info().annotations.push({ type: name, description: `${js.toFixed(1)} KiB JavaScript (brotli), budget ${budget}` });
    expect.soft(js, `${name}: ${js.toFixed(1)} KiB of JavaScript (brotli), over its ${budget} KiB budget; its scripts:\n${fileList(measured[name], 'script')}\n`).toBeLessThanOrEqual(budget);
  }
  await signedOut.close();
  await signedIn.close();
});
