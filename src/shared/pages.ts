import { PRODUCT_NAME } from './constants.js';

/**
 * The web app's pages: the one list both sides read. The server answers these
 * paths with the app (200, with each page's title, description and Open Graph
 * tags in the HTML) and every other path outside the API with 404; the web
 * app's router declares the same paths.
 */
export interface WebPage {
  path: string;
  /** The page also owns every path below it (the dashboard's views). */
  withSubpaths?: boolean;
  title: string;
  description: string;
  /** Worth showing in search results (the rest need an account or an e-mailed link). */
  indexable?: boolean;
}

export const PRODUCT_DESCRIPTION = `${PRODUCT_NAME}: rush your images to perfection with AI. Upscale, edit, restore and animate images and videos.`;

const titled = (name: string) => `${name} - ${PRODUCT_NAME}`;

export const WEB_PAGES = {
  home: { path: '/', title: `${PRODUCT_NAME} - AI image & video workspace`, description: PRODUCT_DESCRIPTION, indexable: true },
  dashboard: { path: '/dashboard', withSubpaths: true, title: titled('Dashboard'), description: PRODUCT_DESCRIPTION },
  success: { path: '/success', title: titled('Payment Successful!'), description: PRODUCT_DESCRIPTION },
  resetPassword: { path: '/reset-password', title: titled('Reset password'), description: `Choose a new password for your ${PRODUCT_NAME} account.` },
  verifyEmail: { path: '/verify-email', title: titled('Confirm email'), description: `Confirm the e-mail address of your ${PRODUCT_NAME} account.` },
  privacy: {
    path: '/privacy',
    title: titled('Privacy Policy'),
    description: `What ${PRODUCT_NAME} stores about you, why, for how long, and how to get a copy or have it deleted.`,
    indexable: true,
  },
} as const satisfies Record<string, WebPage>;

/** What a path outside every page shows (answered with status 404). */
export const NOT_FOUND_PAGE: WebPage = { path: '', title: titled('Page not found'), description: PRODUCT_DESCRIPTION };
