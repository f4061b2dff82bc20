import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { featureFlagMapQueryOptions } from '../api/feature-flags/get-feature-flag-map';
import { App } from './app';
import { createAppQueryClient } from './query-client';
import { routes } from './routes';
import { startup } from './startup';

const queryClient = createAppQueryClient();
// The flag map is public: load it while the session is being restored.
void queryClient.prefetchQuery(featureFlagMapQueryOptions());
const ready = startup(queryClient);
const router = createBrowserRouter(routes);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App queryClient={queryClient} router={router} ready={ready} />
  </StrictMode>,
);
