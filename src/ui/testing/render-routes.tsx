import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, render } from '@testing-library/react';
import { Suspense } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { toastFailure } from '../toast';

// Lazy pages are transformed on first use: slower than Testing Library's default 1 s on a busy machine.
configure({ asyncUtilTimeout: 5000 });

/**
 * Renders routed pages (e.g. `adminPanelRoutes` under `/admin-panel`) with Mantine, toasts and a
 * query client that toasts failures like the app's (server message, else the query's fallback),
 * in a memory router at `path`. For page tests in `settings` and `admin`, which may not import `app`.
 */
export async function renderRoutes(routes: RouteObject[], path: string) {
  const toast = (error: unknown, meta: { errorMessage?: string; silent?: boolean } | undefined) => {
    if (!meta?.silent) toastFailure(error, meta?.errorMessage ?? 'Request failed');
  };
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
    queryCache: new QueryCache({ onError: (error, query) => toast(error, query.meta) }),
    mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => toast(error, mutation.meta) }),
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  await act(async () => {
    render(
      <MantineProvider env="test" defaultColorScheme="dark">
        <Notifications />
        <QueryClientProvider client={queryClient}>
          <Suspense fallback={null}>
            <RouterProvider router={router} />
          </Suspense>
        </QueryClientProvider>
      </MantineProvider>,
    );
  });
  return { router, queryClient };
}
