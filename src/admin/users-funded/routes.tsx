import { lazy } from 'react';
import type { RouteObject } from 'react-router-dom';

// Each page is its own lazy chunk (DESIGN §7).
const FundedUsersPage = lazy(async () => ({ default: (await import('./funded-users-page')).FundedUsersPage }));
const AddFundedUserPage = lazy(async () => ({ default: (await import('./add-funded-user-page')).AddFundedUserPage }));
const TradeSettingsPage = lazy(async () => ({ default: (await import('./trade-settings-page')).TradeSettingsPage }));
const UserApiKeysPage = lazy(async () => ({ default: (await import('./user-api-keys-page')).UserApiKeysPage }));
const AddUserApiKeyPage = lazy(async () => ({ default: (await import('./add-user-api-key-page')).AddUserApiKeyPage }));
const EditUserApiKeyPage = lazy(async () => ({ default: (await import('./edit-user-api-key-page')).EditUserApiKeyPage }));
const ApiKeyTransactionsPage = lazy(async () => ({ default: (await import('./api-key-transactions-page')).ApiKeyTransactionsPage }));

/** The funded-user pages of SPEC §2, children of `/admin-panel` (the role guard wraps them). */
export const fundedUserAdminRoutes: RouteObject[] = [
  { path: 'users-funded', element: <FundedUsersPage /> },
  { path: 'users-funded/add-new', element: <AddFundedUserPage /> },
  { path: 'users-funded/trade-settings/:userId', element: <TradeSettingsPage /> },
  { path: 'users-funded/api-keys-settings/:userId', element: <UserApiKeysPage /> },
  { path: 'users-funded/api-keys-settings/:userId/add-api-key', element: <AddUserApiKeyPage /> },
  { path: 'users-funded/api-keys-settings/:userId/:apiKeyId', element: <EditUserApiKeyPage /> },
  { path: 'users-funded/api-keys-settings/:userId/:apiKeyId/transactions', element: <ApiKeyTransactionsPage /> },
];

/** Paths above, so the route table stops rendering their placeholders. */
export const FUNDED_USER_ADMIN_PATHS: ReadonlySet<string> = new Set(fundedUserAdminRoutes.map((r) => r.path ?? ''));
