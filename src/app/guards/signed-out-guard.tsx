import { Navigate, Outlet } from 'react-router-dom';
import { useAccessToken } from '../../api/use-access-token';

/** SPEC §2: login, register, forgot-password and change-password are for signed-out users only. */
export function SignedOutGuard() {
  const token = useAccessToken();
  return token === null ? <Outlet /> : <Navigate to="/trade" replace />;
}
