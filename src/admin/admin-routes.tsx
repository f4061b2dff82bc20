import { lazy } from 'react';
import type { RouteObject } from 'react-router-dom';

// Each page is its own lazy chunk (DESIGN §7).
const UsersPage = lazy(async () => ({ default: (await import('./users/users-page')).UsersPage }));
const InvitationsPage = lazy(async () => ({ default: (await import('./invitations/invitations-page')).InvitationsPage }));
const GenerateInvitationsPage = lazy(async () => ({ default: (await import('./invitations/generate-invitations-page')).GenerateInvitationsPage }));
const TradingVolumePage = lazy(async () => ({ default: (await import('./trading-volume/trading-volume-page')).TradingVolumePage }));
const MaintenancePage = lazy(async () => ({ default: (await import('./maintenance/maintenance-page')).MaintenancePage }));
const FeatureFlagsPage = lazy(async () => ({ default: (await import('./feature-flags/feature-flags-page')).FeatureFlagsPage }));
const AddFeatureFlagPage = lazy(async () => ({ default: (await import('./feature-flags/add-feature-flag-page')).AddFeatureFlagPage }));
const ReferralsPage = lazy(async () => ({ default: (await import('./referrals/referrals-page')).ReferralsPage }));
const ReferrerUserPage = lazy(async () => ({ default: (await import('./referrals/referrer-user-page')).ReferrerUserPage }));

/** Users, invitations, trading volume, maintenance, feature flags and referrals (SPEC §2), children of `/admin-panel`. */
export const adminPanelRoutes: RouteObject[] = [
  { path: 'users', element: <UsersPage /> },
  { path: 'invitations', element: <InvitationsPage /> },
  { path: 'invitations/generate', element: <GenerateInvitationsPage /> },
  { path: 'trading-volume', element: <TradingVolumePage /> },
  { path: 'maintenance', element: <MaintenancePage /> },
  { path: 'feature-flags', element: <FeatureFlagsPage /> },
  { path: 'feature-flags/add-new', element: <AddFeatureFlagPage /> },
  { path: 'referrals/:tab', element: <ReferralsPage /> },
  { path: 'referrals/user/:userId', element: <ReferrerUserPage /> },
];

/** Paths above, so the route table stops rendering their placeholders. */
export const ADMIN_PANEL_PATHS: ReadonlySet<string> = new Set(adminPanelRoutes.map((r) => r.path ?? ''));
