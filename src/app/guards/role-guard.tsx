import type { ReactNode } from 'react';
import type { Role } from '../../api/contracts/common';
import { useMe } from '../../api/users/get-me';
import { FullAreaLoader } from '../../ui/full-area-loader';
import { MessageScreen } from '../../ui/message-screen';
import { NotFoundScreen } from '../../ui/not-found-screen';

export interface RoleGuardProps {
  /** Roles that may see the content. */
  roles: readonly Role[];
  /** When true everyone signed in sees the content, whatever their role. */
  enabled?: boolean;
  /** Shown instead when the user may not see the content; default: the not-found screen. */
  fallback?: ReactNode;
  children: ReactNode;
}

/**
 * SPEC §2 role guard. Users without the role get the not-found screen (or `fallback`), so a
 * guarded area does not reveal that it exists. The server enforces the same roles on every call.
 */
export function RoleGuard({ roles, enabled = false, fallback, children }: RoleGuardProps) {
  const { data: user, isError, isPending } = useMe();
  if (user) {
    if (enabled || roles.includes(user.role)) return <>{children}</>;
    return <>{fallback ?? <NotFoundScreen />}</>;
  }
  if (isError) return <MessageScreen>Something went wrong, try refreshing the page.</MessageScreen>;
  if (isPending) return <FullAreaLoader description="Loading user data" />;
  return <>{fallback ?? <NotFoundScreen />}</>;
}
