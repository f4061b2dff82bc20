import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { apiClient } from '../../api/client';
import { errorMessage, httpStatus } from '../../api/errors';
import { useMe } from '../../api/users/get-me';
import { useAccessToken } from '../../api/use-access-token';
import { ErrorScreen } from '../../ui/error-screen';
import { FullAreaLoader } from '../../ui/full-area-loader';

/** A 4xx on `/users/me` means the session names no usable user (deleted, disabled): sign out. */
const isNoUser = (error: unknown) => {
  const status = httpStatus(error);
  return status !== null && status >= 400 && status < 500;
};

/**
 * SPEC §2 signed-in guard: 'Loading user data' while the user loads; /login when signed out or
 * the session has no user. A server or network failure shows the error screen instead of a login
 * loop (the tokens may still be good).
 */
export function SignedInGuard() {
  const token = useAccessToken();
  const { data: user, error, isPending } = useMe();
  const noUser = !user && error !== null && isNoUser(error);

  useEffect(() => {
    if (noUser) apiClient.clearTokens('expired');
  }, [noUser]);

  if (token === null || noUser) return <Navigate to="/login" replace />;
  if (user) return <Outlet />;
  if (isPending) return <FullAreaLoader description="Loading user data" />;
  return <ErrorScreen detail={errorMessage(error, 'Unable to fetch user data')} />;
}
