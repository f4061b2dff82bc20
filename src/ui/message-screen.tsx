import { Center, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A blocking one-line message in the middle of the area (settings-load and user-fetch failures). */
export function MessageScreen({ children }: { children: ReactNode }) {
  return (
    <Center h="100%" mih={240} p="xl" role="alert" style={{ flex: 1 }}>
      <Stack align="center" gap="sm">
        <IconAlertTriangle size={32} color="var(--mantine-color-yellow-6)" aria-hidden />
        <Text ta="center">{children}</Text>
      </Stack>
    </Center>
  );
}
