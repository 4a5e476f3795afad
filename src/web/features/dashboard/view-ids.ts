import { webToolOf, webTools, type BuiltInTool, type WebTool } from '../tools/form/registry';

/**
 * The dashboard's view ids and the address each one lives at. Kept apart from
 * the view registry (views.tsx), which lazily imports every view: the views
 * import their props and ids from here, so nothing imports the registry back.
 * Tools' views and addresses come from the tool registry (decision 040).
 */

const PAGE_VIEW_IDS = ['admin', 'referrals', 'gallery', 'video-gallery', 'api-keys', 'account', 'batch'] as const;

type PageViewId = (typeof PAGE_VIEW_IDS)[number];

declare const inRegistry: unique symbol;
/** The view id of a tool added to the registry at run time: only `toolViewId` and the address make one. */
type AddedToolView = string & { readonly [inRegistry]: true };

/**
 * A page's id, or a tool's endpoint (its view id). The pages and the built-in tools are known when the
 * web is built, so `openView('restroe')` is a type error; a tool added to the registry gets its id from
 * the registry (`toolViewId`), checked when it is made.
 */
export type ViewId = PageViewId | BuiltInTool | AddedToolView;

/** The path segment under /dashboard for each page (short, readable, shareable); tools carry their own. */
const PAGE_SLUGS: Record<PageViewId, string> = {
  admin: 'admin',
  referrals: 'referrals',
  gallery: 'images',
  'video-gallery': 'videos',
  'api-keys': 'api-keys',
  account: 'account',
  batch: 'batch',
};

function slugOf(id: string): string | undefined {
  return (PAGE_VIEW_IDS as readonly string[]).includes(id) ? PAGE_SLUGS[id as PageViewId] : webToolOf(id)?.slug;
}

function viewOfSlug(slug: string): ViewId | undefined {
  const tool = webTools().find((t) => t.slug === slug);
  return PAGE_VIEW_IDS.find((id) => PAGE_SLUGS[id] === slug) ?? (tool && toolViewId(tool));
}

export interface DashboardViewProps {
  /** Return to the tool grid. */
  onBack: () => void;
  /** Switch to another view (e.g. from a tool result to the gallery). */
  openView: (id: ViewId, param?: string) => void;
  /** The rest of the address after the view's segment (e.g. a batch id), if any. */
  param?: string;
}

function isViewId(value: unknown): value is ViewId {
  return typeof value === 'string' && slugOf(value) !== undefined;
}

/** A registry tool's view id: its endpoint. */
export function toolViewId(tool: WebTool): ViewId {
  const id = tool.info.endpoint;
  if (!isViewId(id)) throw new Error(`Tool ${id} is not in the tool registry`);
  return id;
}

/**
 * The view an older `?view=<id>` link names: a view id, or an address segment (tools' view ids were
 * short names like 'restore' before a tool's endpoint became its one name; their segments kept them).
 */
export function viewOfLink(value: string): ViewId | undefined {
  return isViewId(value) ? value : viewOfSlug(value);
}

/** The address of a view: /dashboard/<slug>[/<param>]. */
export function viewPath(id: ViewId, param?: string): string {
  return `/dashboard/${slugOf(id) ?? ''}${param ? `/${encodeURIComponent(param)}` : ''}`;
}

/** Reads a /dashboard/... path: null view = the grid; undefined = an address no view answers to. */
export function parseViewPath(pathname: string): { view: ViewId | null; param?: string } | undefined {
  const rest = pathname.replace(/^\/dashboard\/?/, '').replace(/\/+$/, '');
  if (rest === '') return { view: null };
  const [slug, param, ...extra] = rest.split('/');
  const view = viewOfSlug(slug!);
  if (!view || extra.length > 0) return undefined;
  return param ? { view, param: decodeURIComponent(param) } : { view };
}
