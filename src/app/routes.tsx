import { lazy, type ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { ADMIN_PAGES } from '../admin/admin-pages';
import { ADMIN_PANEL_PATHS, adminPanelRoutes } from '../admin/admin-routes';
import { FUNDED_USER_ADMIN_PATHS, fundedUserAdminRoutes } from '../admin/users-funded/routes';
import { apiKeySettingsRoutes } from '../settings/api-keys/routes';
import { PreferencesPage, ReferralsSettingsPage } from '../settings/settings-routes';
import { NotFoundScreen } from '../ui/not-found-screen';
import { FlagGuard } from './guards/flag-guard';
import { RoleGuard } from './guards/role-guard';
import { SignedInGuard } from './guards/signed-in-guard';
import { SignedOutGuard } from './guards/signed-out-guard';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';

// Every page is a lazy chunk: the login page loads only the shell and its own form (DESIGN §7).
const named = <M, P extends object>(load: () => Promise<M>, pick: (m: M) => ComponentType<P>) =>
  lazy(async () => ({ default: pick(await load()) }));
const LoginPage = named(() => import('../auth/login-page'), (m) => m.LoginPage);
const RegisterPage = named(() => import('../auth/register-page'), (m) => m.RegisterPage);
const ForgotPasswordPage = named(() => import('../auth/forgot-password-page'), (m) => m.ForgotPasswordPage);
const ChangePasswordPage = named(() => import('../auth/change-password-page'), (m) => m.ChangePasswordPage);
// The workstation (flexlayout, panels, later the chart engine) is its own lazy chunk.
const TradePage = named(() => import('../panels'), (m) => m.Workstation);
const SettingsLayout = named(() => import('../settings/settings-layout'), (m) => m.SettingsLayout);
const AccountPage = named(() => import('../settings/account-page'), (m) => m.AccountPage);
const AdminLayout = named(() => import('../admin/admin-layout'), (m) => m.AdminLayout);
const AdminPlaceholderPage = named(() => import('../admin/admin-placeholder-page'), (m) => m.AdminPlaceholderPage);

/** The route tree of SPEC §2. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        // Inside the layout, so a crashed page keeps the top bar.
        errorElement: <RouteError />,
        children: [
          {
            element: <SignedOutGuard />,
            children: [
              { path: 'login', element: <LoginPage /> },
              { path: 'register', element: <RegisterPage /> },
              {
                path: 'forgot-password',
                element: (
                  <FlagGuard flag="FF_ENABLE_FORGOT_PASSWORD">
                    <ForgotPasswordPage />
                  </FlagGuard>
                ),
              },
              { path: 'change-password', element: <ChangePasswordPage /> },
            ],
          },
          {
            element: <SignedInGuard />,
            children: [
              // The root goes to login when signed out (the guard) and to the workstation when signed in.
              { index: true, element: <Navigate to="/trade" replace /> },
              { path: 'trade', element: <TradePage /> },
              {
                path: 'settings',
                element: <SettingsLayout />,
                children: [
                  { index: true, element: <Navigate to="account" replace /> },
                  { path: 'account', element: <AccountPage /> },
                  ...apiKeySettingsRoutes,
                  { path: 'preferences', element: <PreferencesPage /> },
                  {
                    path: 'referrals',
                    element: (
                      <RoleGuard roles={['admin', 'referrer']}>
                        <ReferralsSettingsPage />
                      </RoleGuard>
                    ),
                  },
                ],
              },
              {
                path: 'admin-panel',
                element: (
                  <RoleGuard roles={['admin']}>
                    <AdminLayout />
                  </RoleGuard>
                ),
                children: [
                  { index: true, element: <Navigate to="users" replace /> },
                  { path: 'referrals', element: <Navigate to="overview" replace /> },
                  ...fundedUserAdminRoutes,
                  ...adminPanelRoutes,
                  ...ADMIN_PAGES.filter((spec) => !FUNDED_USER_ADMIN_PATHS.has(spec.path) && !ADMIN_PANEL_PATHS.has(spec.path)).map((spec) => ({
                    path: spec.path,
                    element: <AdminPlaceholderPage spec={spec} />,
                  })),
                ],
              },
            ],
          },
          { path: '*', element: <NotFoundScreen /> },
        ],
      },
    ],
  },
];
