import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconLogout, IconSettings, IconShieldLock } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router-dom';
import { useSignout } from '../../api/auth/signout';
import type { User } from '../../api/contracts/users';

/** SPEC §2 user menu: the email, Settings, Admin panel (admins only), Log out. */
export function UserMenu({ user }: { user: User }) {
  const navigate = useNavigate();
  const signout = useSignout();
  return (
    <Menu position="bottom-end" width={220} withinPortal>
      <Menu.Target>
        <Button variant="subtle" size="xs" rightSection={<IconChevronDown size={14} />} aria-label="User menu">
          {user.email}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.email}</Menu.Label>
        <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} />}>
          Settings
        </Menu.Item>
        {user.role === 'admin' ? (
          <Menu.Item component={Link} to="/admin-panel" leftSection={<IconShieldLock size={16} />}>
            Admin panel
          </Menu.Item>
        ) : null}
        <Menu.Divider />
        <Menu.Item
          leftSection={<IconLogout size={16} />}
          onClick={() => signout.mutate(undefined, { onSettled: () => navigate('/login', { replace: true }) })}
        >
          Log out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
