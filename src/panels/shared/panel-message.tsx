import { Center, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A centred title and explanation filling the panel (empty states, turned-off panels). */
export function PanelMessage({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <Center h="100%" p="md" data-testid={testId}>
      <Stack gap={4} align="center" maw={360} ta="center">
        <Text fw={600}>{title}</Text>
        {children ? (
          <Text size="sm" c="dimmed" component="div">
            {children}
          </Text>
        ) : null}
      </Stack>
    </Center>
  );
}
