import { Anchor, Center, Stack, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { usePageTitle } from './use-page-title';

/** SPEC §2: any unknown path (and a role-guarded page the user may not see). */
export function NotFoundScreen() {
  usePageTitle('Page not found');
  return (
    <Center h="100%" mih={320} p="xl" style={{ flex: 1 }}>
      <Stack align="center" gap="md">
        <Title order={2}>Uh-oh... Page not found.</Title>
        <Anchor component={Link} to="/">
          Main page
        </Anchor>
      </Stack>
    </Center>
  );
}
