import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { webToolOf, type WebTool } from '../tools/form/registry';
import { toolViewId, type DashboardViewProps, type ViewId } from './view-ids';

/**
 * The dashboard's view registry (requirements §2: the dashboard switches in place
 * between the tool grid and one of these views).
 *
 * Each page lives in its own file and is the file's DEFAULT export, taking
 * DashboardViewProps. To add a page, add its id and address segment in
 * view-ids.ts and one entry to PAGES below. A tool's view is the one form-driven
 * view drawing the tool's declared form (the tool registry lists the tools).
 * The dashboard shell draws the 'Back to Tools' button (and handles Escape)
 * above every view, so views only render their own content.
 */
export interface ViewDefinition {
  id: ViewId;
  /** Human title (also used for the document title). */
  title: string;
  /** Only admins may open it; others are sent back to the grid. */
  adminOnly?: boolean;
  Component: LazyExoticComponent<ComponentType<DashboardViewProps>>;
}

type Loader = () => Promise<{ default: ComponentType<DashboardViewProps> }>;

function view(id: ViewId, title: string, load: Loader, opts: { adminOnly?: boolean } = {}): ViewDefinition {
  return { id, title, Component: lazy(load), ...opts };
}

const PAGES: Record<string, ViewDefinition> = {
  admin: view('admin', 'Admin Dashboard', () => import('../admin/AdminDashboardView'), { adminOnly: true }),
  referrals: view('referrals', 'Referral Management', () => import('../referrals/ReferralsView')),
  gallery: view('gallery', 'Your Images', () => import('../library/ImageGalleryView')),
  'video-gallery': view('video-gallery', 'Your Videos', () => import('../library/VideoGalleryView')),
  'api-keys': view('api-keys', 'API Keys', () => import('../api-keys/ApiKeysView')),
  account: view('account', 'Account', () => import('../account/AccountView')),
  batch: view('batch', 'Batch Processing', () => import('../batch/BatchView')),
};

/** One lazy view per tool, made once: the form-driven view with the tool's form and web part. */
const toolViews = new Map<WebTool, ViewDefinition>();

function toolView(tool: WebTool): ViewDefinition {
  let def = toolViews.get(tool);
  if (!def) {
    def = view(toolViewId(tool), tool.info.title, async () => {
      const [{ ToolView }, loaded] = await Promise.all([import('../tools/form/ToolView'), tool.load()]);
      return { default: (props: DashboardViewProps) => <ToolView tool={tool} {...loaded} {...props} /> };
    });
    toolViews.set(tool, def);
  }
  return def;
}

/** The view of an id: a page, or a tool's form-driven view. */
export function viewDefinition(id: ViewId): ViewDefinition | undefined {
  if (Object.hasOwn(PAGES, id)) return PAGES[id];
  const tool = webToolOf(id);
  return tool && toolView(tool);
}
