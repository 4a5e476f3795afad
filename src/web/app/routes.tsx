import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useAuth } from './auth';
import { LoadingScreen } from '../components/LoadingScreen';
import { ErrorScreen } from '../components/ErrorScreen';
import { LandingPage } from '../features/auth/LandingPage';
import { WEB_PAGES } from '../../shared/pages.js';

const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage'));
const SuccessPage = lazy(() => import('../features/payments/SuccessPage'));
const ResetPasswordPage = lazy(() => import('../features/account/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })));
const VerifyEmailPage = lazy(() => import('../features/account/ResetPasswordPage').then((m) => ({ default: m.VerifyEmailPage })));
const PrivacyPage = lazy(() => import('../features/legal/PrivacyPage').then((m) => ({ default: m.PrivacyPage })));
const NotFoundPage = lazy(() => import('../components/NotFoundPage').then((m) => ({ default: m.NotFoundPage })));

/** Signed-in screens; signed-out visitors get the landing page (login / register) in place. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status, error } = useAuth();
  if (status === 'loading') return <LoadingScreen />;
  if (status === 'error') return <ErrorScreen error={error} />;
  if (status === 'signed-out') return <LandingPage />;
  return <Suspense fallback={<LoadingScreen />}>{children}</Suspense>;
}

function RootRedirect() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: WEB_PAGES.dashboard.path, search }} replace />;
}

/** The paths are shared/pages.ts's, so the server answers exactly these with the app (and 404 otherwise). */
export function AppRoutes() {
  return (
    <Routes>
      <Route path={WEB_PAGES.home.path} element={<RootRedirect />} />
      <Route
        path={`${WEB_PAGES.dashboard.path}/*`}
        element={
          <RequireAuth>
            <DashboardPage />
          </RequireAuth>
        }
      />
      <Route
        path={WEB_PAGES.success.path}
        element={
          <RequireAuth>
            <SuccessPage />
          </RequireAuth>
        }
      />
      {/* Opened from e-mailed links, signed in or not. */}
      <Route
        path={WEB_PAGES.resetPassword.path}
        element={
          <Suspense fallback={<LoadingScreen />}>
            <ResetPasswordPage />
          </Suspense>
        }
      />
      <Route
        path={WEB_PAGES.verifyEmail.path}
        element={
          <Suspense fallback={<LoadingScreen />}>
            <VerifyEmailPage />
          </Suspense>
        }
      />
      <Route
        path={WEB_PAGES.privacy.path}
        element={
          <Suspense fallback={<LoadingScreen />}>
            <PrivacyPage />
          </Suspense>
        }
      />
      <Route
        path="*"
        element={
          <Suspense fallback={<LoadingScreen />}>
            <NotFoundPage />
          </Suspense>
        }
      />
    </Routes>
  );
}
