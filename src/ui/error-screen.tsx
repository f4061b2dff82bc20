import { Button, Card, Center, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { usePageTitle } from './use-page-title';

/** SPEC §2 error screen: warning icon, fixed heading, optional detail, Refresh reloads the page. */
export function ErrorScreen({ detail }: { detail?: string | null }) {
  usePageTitle('Error');
  return (
    <Center h="100%" mih={320} p="xl" style={{ flex: 1 }}>
      <Card withBorder padding="xl" radius="md" maw={520} w="100%">
        <Stack gap="md">
          <Group gap="sm" wrap="nowrap">
            <IconAlertTriangle size={32} color="var(--mantine-color-yellow-6)" aria-hidden />
            <Title order={2}>Uh-oh... There was an error.</Title>
          </Group>
          {detail ? <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>{detail}</Text> : null}
          <Group justify="flex-end">
            <Button onClick={() => window.location.reload()}>Refresh</Button>
          </Group>
        </Stack>
      </Card>
    </Center>
  );
}
