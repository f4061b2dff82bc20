import { Anchor, Badge, Group, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useConfig } from '../../api/config/get-config';
import { useAccessToken } from '../../api/use-access-token';
import { useProductName } from '../../ui/use-page-title';
import { REPORT_BUG_URL } from './external-links';
import { Logo } from './logo';

const controls = () => import('./signed-in-controls');
const SignedInLeftControls = lazy(async () => ({ default: (await controls()).SignedInLeftControls }));
const SignedInRightControls = lazy(async () => ({ default: (await controls()).SignedInRightControls }));

/** SPEC §2 top bar. */
export function TopBar() {
  const product = useProductName();
  const { data: config } = useConfig();
  const signedIn = useAccessToken() !== null;
  const { pathname } = useLocation();

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="md">
      <Group gap="md" wrap="nowrap">
        <Anchor component={Link} to="/" underline="never" c="inherit" aria-label={`${product} home`}>
          <Group gap={8} wrap="nowrap">
            <Logo />
            <Text fw={700} size="lg" visibleFrom="xs">
              {product}
            </Text>
          </Group>
        </Anchor>
        {signedIn ? (
          <Suspense fallback={null}>
            <SignedInLeftControls />
          </Suspense>
        ) : null}
        {config?.marketData === 'sim' ? (
          <Badge color="orange" variant="light" tt="none" data-testid="sim-badge" title="Market data and trading come from the built-in simulator, not a real exchange">
            Simulated market
          </Badge>
        ) : null}
      </Group>
      <Group gap="sm" wrap="nowrap">
        <Anchor href={REPORT_BUG_URL} target="_blank" rel="noopener noreferrer" size="sm">
          Report a Bug?
        </Anchor>
        {signedIn ? (
          <Suspense fallback={null}>
            <SignedInRightControls />
          </Suspense>
        ) : pathname !== '/login' ? (
          <Anchor component={Link} to="/login" size="sm" fw={600}>
            Log in
          </Anchor>
        ) : null}
      </Group>
    </Group>
  );
}
