import { lazy } from 'react';
import type { RouteObject } from 'react-router-dom';

// Each page is its own lazy chunk (DESIGN §7).
const ApiKeysPage = lazy(async () => ({ default: (await import('./api-keys-page')).ApiKeysPage }));
const AddApiKeyPage = lazy(async () => ({ default: (await import('./add-api-key-page')).AddApiKeyPage }));
const ApiKeyPage = lazy(async () => ({ default: (await import('./api-key-page')).ApiKeyPage }));

/** `settings/api-keys`, `api-keys/add-new`, `api-keys/{apiId}` (SPEC §2), children of the settings route. */
export const apiKeySettingsRoutes: RouteObject[] = [
  { path: 'api-keys', element: <ApiKeysPage /> },
  { path: 'api-keys/add-new', element: <AddApiKeyPage /> },
  { path: 'api-keys/:apiId', element: <ApiKeyPage /> },
];
