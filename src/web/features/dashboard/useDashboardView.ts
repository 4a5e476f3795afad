import { useCallback, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { parseViewPath, viewOfLink, viewPath, type ViewId } from './view-ids';

interface ViewState {
  /** The previous history entry is the grid (so 'Back to Tools' can simply go back). */
  fromGrid?: boolean;
}

/**
 * Which dashboard view is open (null = the tool grid), read from the address:
 * /dashboard/<view>[/<param>]. Bookmarks, new tabs, reloads and the browser's
 * Back and Forward all follow it. An address no view answers to shows the grid
 * at /dashboard; an older `?view=<id>` link is turned into the view's address.
 */
export function useDashboardView() {
  const location = useLocation();
  const navigate = useNavigate();
  const parsed = parseViewPath(location.pathname);
  const linked = new URLSearchParams(location.search).get('view');
  const state = location.state as ViewState | null;
  const view: ViewId | null = parsed?.view ?? null;
  const param = parsed?.param;

  useEffect(() => {
    if (parsed === undefined) navigate({ pathname: '/dashboard', search: '' }, { replace: true });
    else if (linked !== null && parsed.view === null) {
      const old = viewOfLink(linked);
      navigate(old ? viewPath(old) : '/dashboard', { replace: true });
    }
  }, [parsed === undefined, linked, parsed?.view]); // eslint-disable-line react-hooks/exhaustive-deps

  const openView = useCallback(
    (id: ViewId, next?: string) =>
      navigate(viewPath(id, next), { state: { fromGrid: !view } satisfies ViewState }),
    [navigate, view],
  );

  const closeView = useCallback(() => {
    // Straight back when the grid is the previous entry, so Forward reopens the view.
    if (state?.fromGrid && window.history.length > 1) navigate(-1);
    else navigate('/dashboard');
  }, [navigate, state?.fromGrid]);

  return { view, param, openView, closeView };
}
