import { AppShell } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { FullAreaLoader } from '../ui/full-area-loader';
import { MaintenanceBanner } from './top-bar/maintenance-banner';
import { TopBar } from './top-bar/top-bar';

export const TOP_BAR_HEIGHT = 52;

/** Every screen: the top bar, the maintenance banner, then the routed page filling the rest. */
export function RootLayout() {
  return (
    <AppShell header={{ height: TOP_BAR_HEIGHT }} padding={0}>
      <AppShell.Header>
        <TopBar />
      </AppShell.Header>
      <AppShell.Main
        style={{ display: 'flex', flexDirection: 'column', height: '100dvh', minHeight: 0 }}
      >
        <MaintenanceBanner />
        <div style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', overflow: 'auto' }}>
          <Suspense fallback={<FullAreaLoader />}>
            <Outlet />
          </Suspense>
        </div>
      </AppShell.Main>
    </AppShell>
  );
}
