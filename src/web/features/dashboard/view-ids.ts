/**
 * The dashboard's view ids and the address each one lives at. Kept apart from
 * the view registry (views.tsx), which lazily imports every view: the views
 * import their props and ids from here, so nothing imports the registry back.
 */
export const VIEW_IDS = [
  'fal-upscaler',
  'fal-image-editor',
  'restore',
  'fal-image-to-video',
  'video-upscaler',
  'admin',
  'referrals',
  'gallery',
  'video-gallery',
  'api-keys',
  'account',
  'batch',
] as const;

export type ViewId = (typeof VIEW_IDS)[number];

/** The path segment under /dashboard for each view (short, readable, shareable). */
export const VIEW_SLUGS: Record<ViewId, string> = {
  'fal-upscaler': 'upscaler',
  'fal-image-editor': 'editor',
  restore: 'restore',
  'fal-image-to-video': 'image-to-video',
  'video-upscaler': 'video-upscaler',
  admin: 'admin',
  referrals: 'referrals',
  gallery: 'images',
  'video-gallery': 'videos',
  'api-keys': 'api-keys',
  account: 'account',
  batch: 'batch',
};

export interface DashboardViewProps {
  /** Return to the tool grid. */
  onBack: () => void;
  /** Switch to another view (e.g. from a tool result to the gallery). */
  openView: (id: ViewId, param?: string) => void;
  /** The rest of the address after the view's segment (e.g. a batch id), if any. */
  param?: string;
}

export function isViewId(value: unknown): value is ViewId {
  return typeof value === 'string' && (VIEW_IDS as readonly string[]).includes(value);
}

const BY_SLUG = new Map<string, ViewId>(Object.entries(VIEW_SLUGS).map(([id, slug]) => [slug, id as ViewId]));

/** The address of a view: /dashboard/<slug>[/<param>]. */
export function viewPath(id: ViewId, param?: string): string {
  return `/dashboard/${VIEW_SLUGS[id]}${param ? `/${encodeURIComponent(param)}` : ''}`;
}

/** Reads a /dashboard/... path: null view = the grid; undefined = an address no view answers to. */
export function parseViewPath(pathname: string): { view: ViewId | null; param?: string } | undefined {
  const rest = pathname.replace(/^\/dashboard\/?/, '').replace(/\/+$/, '');
  if (rest === '') return { view: null };
  const [slug, param, ...extra] = rest.split('/');
  const view = BY_SLUG.get(slug!);
  if (!view || extra.length > 0) return undefined;
  return param ? { view, param: decodeURIComponent(param) } : { view };
}
