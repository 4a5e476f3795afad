import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { signInAsAdmin } from './admin-helpers';
import { expectAccessible } from './axe';
import { testMediaForThisFile } from './fixtures/media';
import { atEachWidth, UI_ONLY, walkAdminScreens, walkSignedOutScreens, walkUserScreens } from './screens';

/**
 * Every screen a visitor, a user or an admin can reach, at desktop and phone widths, judged two
 * ways on one walk:
 * - accessible: axe finds no serious or critical violation at any stop (the other journeys call
 *   the same check on the screens they build up: runs, results, batches);
 * - quiet: no console error or warning and no uncaught exception anywhere on the walk, so a
 *   newcomer opening the developer tools sees nothing to worry about, not even a signed-out page
 *   asking who is signed in and being told "401".
 * One walk for both halves the browser time the two checks used to take on separate walks.
 */
const media = testMediaForThisFile();

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

atEachWidth((size) => {
  /** A stop on the walk: once its late requests have answered, axe judges it. */
  const judge = (page: Page) => async (stop: string) => {
    await settle(page);
    await expectAccessible(page, `${stop} ${size.name}`);
  };

  test(`signed-out screens: accessible and quiet (${size.name})`, UI_ONLY, async ({ page }) => {
    const noise = listen(page);
    await walkSignedOutScreens(page, judge(page));
    expect(noise).toEqual([]);
  });

  test(`a user's screens: accessible and quiet (${size.name})`, UI_ONLY, async ({ page }) => {
    const noise = listen(page);
    const look = judge(page);
    await walkUserScreens(page, media(), look);

    // The image library's tile actions menu.
    await page.goto('/dashboard/images');
    await page.getByRole('button', { name: 'Actions for sunset.png' }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await look('tile actions');
    await page.keyboard.press('Escape');

    // Select mode: tiles are checkboxes, a bar offers the batch.
    await page.getByRole('button', { name: 'Select', exact: true }).click();
    await page.getByRole('checkbox', { name: /^Select sunset\.png/ }).click();
    await expect(page.getByTestId('selection-count')).toHaveText('1 selected');
    await look('image select mode');
    await page.getByRole('tab', { name: /Batches/ }).click();
    await look('image batches tab');

    // Client-side moves between screens, as a person clicks through them.
    await page.getByRole('button', { name: 'Back to Tools' }).click();
    await expect(page.getByRole('heading', { name: 'AI Tools', exact: true })).toBeVisible();
    await settle(page);

    // A tool with its source chosen and its advanced settings open.
    await page.goto('/dashboard/restore');
    await page.getByRole('tab', { name: 'Gallery' }).click();
    await page.getByRole('button', { name: 'sunset.png' }).first().click();
    await expect(page.getByTestId('source-name')).toHaveText('sunset.png');
    await page.getByRole('button', { name: 'Advanced Settings' }).click();
    await look('restore form');

    await page.goto('/privacy');
    await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
    await settle(page);
    await page.goto('/success');
    await look('success page');
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

  test(`an admin's screens: accessible and quiet (${size.name})`, UI_ONLY, async ({ page }) => {
    // Signed in through the API first: registering an account that exists answers 409, which the browser would log.
    await signInAsAdmin(page);
    const noise = listen(page);
    await walkAdminScreens(page, judge(page));
    expect(noise).toEqual([]);
  });
});
