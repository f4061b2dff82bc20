import { NavLink } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useMatch, useResolvedPath } from 'react-router-dom';

/** A section-menu entry that is a real link and shows as active on its route and the routes below it. */
export function RouteNavLink({ to, label, icon }: { to: string; label: string; icon?: ReactNode }) {
  const { pathname } = useResolvedPath(to);
  const active = useMatch({ path: pathname, end: false }) !== null;
  return <NavLink component={Link} to={to} label={label} leftSection={icon} active={active} aria-current={active ? 'page' : undefined} />;
}
