import { act, configure, render, type RenderResult } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, type RouteObject } from 'react-router-dom';
import { App } from '../app';
import { createAppQueryClient } from '../query-client';

// Pages are lazy chunks that vitest transforms on first use: on a busy machine that takes longer
// than Testing Library's default 1 s wait.
configure({ asyncUtilTimeout: 5000 });

/**
 * Renders the whole app (providers, toasts, flag gate, session effects and `routes`) at `path` in a
 * memory router. `configure` may adjust the query client first (e.g. turn retries off). Awaited in
 * `act` because the app suspends until startup has finished.
 */
export async function renderApp(routes: RouteObject[], path: string, configure?: (client: QueryClient) => void) {
  const queryClient = createAppQueryClient();
  configure?.(queryClient);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  let view: RenderResult | undefined;
  await act(async () => {
    view = render(<App queryClient={queryClient} router={router} ready={Promise.resolve()} env="test" />);
  });
  if (!view) throw new Error('render did not run');
  return { ...view, router, queryClient };
}
