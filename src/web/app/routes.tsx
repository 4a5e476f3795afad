import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useAuth } from './auth';
import { LoadingScreen } from '../components/LoadingScreen';
import { ErrorScreen } from '../components/ErrorScreen';
import { NotFoundPage } from '../components/NotFoundPage';
import { LandingPage } from '../features/auth/LandingPage';

const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage'));
const SuccessPage = lazy(() => import('../features/payments/SuccessPage'));
const ResetPasswordPage = lazy(() => import('../features/account/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })));
const VerifyEmailPage = lazy(() => import('../features/account/ResetPasswordPage').then((m) => ({ default: m.VerifyEmailPage })));

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
  return <Navigate to={{ pathname: '/dashboard', search }} replace />;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<RootRedirect />} />
      <Route
        path="/dashboard/*"
        element={
          <RequireAuth>
            <DashboardPage />
          </RequireAuth>
        }
      />
      <Route
        path="/success"
        element={
          <RequireAuth>
            <SuccessPage />
          </RequireAuth>
        }
      />
      {/* Opened from e-mailed links, signed in or not. */}
      <Route
        path="/reset-password"
        element={
          <Suspense fallback={<LoadingScreen />}>
            <ResetPasswordPage />
          </Suspense>
        }
      />
      <Route
        path="/verify-email"
        element={
          <Suspense fallback={<LoadingScreen />}>
            <VerifyEmailPage />
          </Suspense>
        }
      />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
