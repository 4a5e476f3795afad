import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { testMediaForThisFile } from './fixtures/media';
import { signInAsAdmin } from './admin-helpers';
import { atEachWidth, walkAdminScreens, walkSignedOutScreens, walkUserScreens } from './screens';

/**
 * A quiet app: a walk through every screen, signed out, as a user and as an admin, at desktop and
 * phone widths, with a listener that fails the walk on any console error or warning and on any
 * uncaught exception. A newcomer opening the developer tools sees nothing to worry about: not
 * even a signed-out page asking who is signed in and being told "401".
 */
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

const media = testMediaForThisFile();

atEachWidth((size) => {
  test(`signed-out screens log nothing (${size.name})`, async ({ page }) => {
    const noise = listen(page);
    await walkSignedOutScreens(page, () => settle(page));
    expect(noise).toEqual([]);
  });

  test(`a user's screens log nothing (${size.name})`, async ({ page }) => {
    const noise = listen(page);
    await walkUserScreens(page, media(), () => settle(page));
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
    // Signed in through the API first: registering an account that exists answers 409, which the browser would log.
    await signInAsAdmin(page);
    const noise = listen(page);
    await walkAdminScreens(page, () => settle(page));
    expect(noise).toEqual([]);
  });
});
