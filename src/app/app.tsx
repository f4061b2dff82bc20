import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Suspense, use } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { FullAreaLoader } from '../ui/full-area-loader';
import { TOAST_DEFAULT_MS, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '../ui/toast';
import { FeatureFlagsGate } from './guards/feature-flags-gate';
import { SessionEffects } from './session-effects';
import { theme } from './theme';

export interface AppProps {
  queryClient: QueryClient;
  router: ReturnType<typeof createBrowserRouter>;
  /** Resolves when startup (config, Sentry, session restore) is done; it never rejects. */
  ready: Promise<void>;
  /** Mantine's `test` environment turns off transitions and portals (component tests). */
  env?: 'default' | 'test';
}

/** Suspends (showing the spinner) until authentication has initialised. */
function AfterStartup({ ready, router }: Pick<AppProps, 'ready' | 'router'>) {
  use(ready);
  return (
    <>
      <SessionEffects />
      <FeatureFlagsGate>
        <RouterProvider router={router} />
      </FeatureFlagsGate>
    </>
  );
}

export function App({ queryClient, router, ready, env = 'default' }: AppProps) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="dark" env={env}>
      <Notifications limit={TOAST_LIMIT} autoClose={TOAST_DEFAULT_MS} transitionDuration={TOAST_REMOVE_DELAY_MS} position="top-right" />
      <QueryClientProvider client={queryClient}>
        <Suspense fallback={<FullAreaLoader />}>
          <AfterStartup ready={ready} router={router} />
        </Suspense>
      </QueryClientProvider>
    </MantineProvider>
  );
}
