import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '../lib/api';
import { queryKeys } from '../lib/queryKeys';
import { useToaster } from '../lib/toast';
import { AuthProvider, useAuth } from './auth';
import { AppRoutes } from './routes';

function createQueryClient(): QueryClient {
  // A 401 from any call means the session ended: reload /api/me so the app
  // falls back to the landing page instead of showing broken screens.
  const onError = (err: unknown, key?: readonly unknown[]) => {
    if (err instanceof ApiError && err.status === 401 && key?.[0] !== queryKeys.me[0]) {
      void client.invalidateQueries({ queryKey: queryKeys.me });
    }
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (err, query) => onError(err, query.queryKey) }),
    mutationCache: new MutationCache({ onError: (err) => onError(err) }),
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1,
      },
    },
  });
  return client;
}

/** The toaster, for a signed-in user, once a first toast has loaded it (lib/toast.ts, decision 032). */
function Notifications() {
  const { status } = useAuth();
  const Toaster = useToaster();
  if (status !== 'signed-in' || !Toaster) return null;
  return <Toaster theme="dark" position="top-right" richColors closeButton />;
}

export function App() {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      <BrowserRouter>
        <AuthProvider>
          <AppRoutes />
          <Notifications />
        </AuthProvider>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
