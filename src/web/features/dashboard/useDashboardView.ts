import { useCallback, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isViewId, type ViewId } from './views';

interface ViewState {
  view?: ViewId;
  /** The previous history entry is the grid (so 'Back to Tools' can simply go back). */
  fromGrid?: boolean;
}

/**
 * Which dashboard view is open (null = the tool grid). Kept in the history
 * entry's state, so the URL stays /dashboard (SPEC: no route change) while
 * the browser Back button returns to the grid and a reload keeps the view.
 * A `?view=<id>` deep link is accepted once and folded into that state.
 */
export function useDashboardView() {
  const location = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(location.search);
  const linked = params.get('view');
  const state = location.state as ViewState | null;
  const stateView = state?.view;
  const view: ViewId | null = isViewId(stateView) ? stateView : isViewId(linked) ? linked : null;

  // Fold a ?view= deep link into history state so the address bar reads /dashboard.
  useEffect(() => {
    if (linked === null) return;
    params.delete('view');
    const search = params.toString();
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true, state: isViewId(linked) ? { view: linked } : null },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linked]);

  const openView = useCallback(
    (id: ViewId) =>
      navigate(
        { pathname: location.pathname, search: location.search },
        // From the grid: push (Back returns to the grid). From another view: replace.
        { state: { view: id, fromGrid: !view || !!state?.fromGrid }, replace: !!view },
      ),
    [navigate, location.pathname, location.search, view, state?.fromGrid],
  );

  const closeView = useCallback(() => {
    if (state?.fromGrid && window.history.length > 1) navigate(-1);
    else navigate({ pathname: location.pathname, search: location.search }, { state: null });
  }, [navigate, location.pathname, location.search, state?.fromGrid]);

  return { view, openView, closeView };
}
