import { Box, Group, ScrollArea, Stack, Title } from '@mantine/core';
import { IconChartPie, IconKey, IconAdjustments, IconUser } from '@tabler/icons-react';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { useMe } from '../api/users/get-me';
import { FullAreaLoader } from '../ui/full-area-loader';
import { RouteNavLink } from '../ui/route-nav-link';

const LINKS = [
  { to: 'account', label: 'Account', icon: IconUser },
  { to: 'api-keys', label: 'API keys', icon: IconKey },
  { to: 'preferences', label: 'Preferences', icon: IconAdjustments },
] as const;

/** `/settings/*`: the section menu beside the routed settings page. */
export function SettingsLayout() {
  const { data: user } = useMe();
  const referrals = user?.role === 'admin' || user?.role === 'referrer';
  return (
    <Group align="stretch" gap={0} wrap="nowrap" style={{ flex: 1, minHeight: 0 }}>
      <Box component="nav" aria-label="Settings" w={220} p="sm" style={{ borderRight: '1px solid var(--mantine-color-default-border)', flexShrink: 0 }}>
        <Stack gap={4}>
          <Title order={4} px="sm" py="xs">
            Settings
          </Title>
          {LINKS.map(({ to, label, icon: Icon }) => (
            <RouteNavLink key={to} to={to} label={label} icon={<Icon size={18} />} />
          ))}
          {referrals ? <RouteNavLink to="referrals" label="Referrals" icon={<IconChartPie size={18} />} /> : null}
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
