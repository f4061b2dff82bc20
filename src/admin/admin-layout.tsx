import { Box, Group, ScrollArea, Stack, Title } from '@mantine/core';
import { IconChartBar, IconCoin, IconFlag, IconMail, IconTool, IconUsers, IconWallet } from '@tabler/icons-react';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { FullAreaLoader } from '../ui/full-area-loader';
import { RouteNavLink } from '../ui/route-nav-link';

const LINKS = [
  { to: 'users', label: 'Users', icon: IconUsers },
  { to: 'users-funded', label: 'Funded users', icon: IconWallet },
  { to: 'invitations', label: 'Invitations', icon: IconMail },
  { to: 'trading-volume', label: 'Trading volume', icon: IconChartBar },
  { to: 'referrals/overview', label: 'Referrals', icon: IconCoin },
  { to: 'maintenance', label: 'Maintenance', icon: IconTool },
  { to: 'feature-flags', label: 'Feature flags', icon: IconFlag },
] as const;

/** `/admin-panel/*` (admins only; the app's role guard wraps it): section menu beside the page. */
export function AdminLayout() {
  return (
    <Group align="stretch" gap={0} wrap="nowrap" style={{ flex: 1, minHeight: 0 }}>
      <Box component="nav" aria-label="Admin panel" w={220} p="sm" style={{ borderRight: '1px solid var(--mantine-color-default-border)', flexShrink: 0 }}>
        <Stack gap={4}>
          <Title order={4} px="sm" py="xs">
            Admin panel
          </Title>
          {LINKS.map(({ to, label, icon: Icon }) => (
            <RouteNavLink key={to} to={to} label={label} icon={<Icon size={18} />} />
          ))}
        </Stack>
      </Box>
      <ScrollArea style={{ flex: 1 }}>
        <Suspense fallback={<FullAreaLoader />}>
          <Outlet />
        </Suspense>
      </ScrollArea>
    </Group>
  );
}
