import { Center, Loader, Stack, Text } from '@mantine/core';

/** Full-area loading indicator with an optional description (SPEC §2 generic screens). */
export function FullAreaLoader({ description }: { description?: string }) {
  return (
    <Center h="100%" mih={240} p="xl" role="status" aria-live="polite" style={{ flex: 1 }}>
      <Stack align="center" gap="sm">
        <Loader aria-label={description ?? 'Loading'} />
        {description ? <Text c="dimmed">{description}</Text> : null}
      </Stack>
    </Center>
  );
}
