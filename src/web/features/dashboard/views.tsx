import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { DashboardViewProps, ViewId } from './view-ids';

/**
 * The dashboard's view registry (requirements §2: the dashboard switches in place
 * between the tool grid and one of these views).
 *
 * Each view lives in its own file and is the file's DEFAULT export, taking
 * DashboardViewProps. To add a view, add its id and address segment in
 * view-ids.ts and one entry to VIEWS below.
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

export const VIEWS: Record<ViewId, ViewDefinition> = {
  'fal-upscaler': view('fal-upscaler', 'AI Image Upscaler', () => import('../tools/upscaler/UpscalerView')),
  'fal-image-editor': view('fal-image-editor', 'AI Image Editor', () => import('../tools/editor/ImageEditorView')),
  restore: view('restore', 'AI Image Restore', () => import('../tools/restore/RestoreView')),
  'fal-image-to-video': view('fal-image-to-video', 'AI Image to Video', () => import('../tools/image-to-video/ImageToVideoView')),
  'video-upscaler': view('video-upscaler', 'AI Video Upscaler', () => import('../tools/video-upscaler/VideoUpscalerView')),
  admin: view('admin', 'Admin Dashboard', () => import('../admin/AdminDashboardView'), { adminOnly: true }),
  referrals: view('referrals', 'Referral Management', () => import('../referrals/ReferralsView')),
  gallery: view('gallery', 'Your Images', () => import('../library/ImageGalleryView')),
  'video-gallery': view('video-gallery', 'Your Videos', () => import('../library/VideoGalleryView')),
  'api-keys': view('api-keys', 'API Keys', () => import('../api-keys/ApiKeysView')),
  account: view('account', 'Account', () => import('../account/AccountView')),
  batch: view('batch', 'Batch Processing', () => import('../batch/BatchView')),
};
