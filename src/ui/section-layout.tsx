import { Box, Group, ScrollArea, Stack, Title } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { FullAreaLoader } from './full-area-loader';
import { RouteNavLink } from './route-nav-link';

export interface SectionLink {
  to: string;
  label: string;
  icon: Icon;
}

/** A routed area (settings, admin panel): its section menu beside the routed page, which scrolls alone. */
export function SectionLayout({ title, links }: { title: string; links: readonly SectionLink[] }) {
  return (
    <Group align="stretch" gap={0} wrap="nowrap" style={{ flex: 1, minHeight: 0 }}>
      <Box component="nav" aria-label={title} w={220} p="sm" style={{ borderRight: '1px solid var(--mantine-color-default-border)', flexShrink: 0 }}>
        <Stack gap={4}>
          <Title order={4} px="sm" py="xs">
            {title}
          </Title>
          {links.map(({ to, label, icon: LinkIcon }) => (
            <RouteNavLink key={to} to={to} label={label} icon={<LinkIcon size={18} />} />
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
