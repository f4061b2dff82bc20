import { Card, Center, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePageTitle } from '../ui/use-page-title';

/** The centred card every signed-out page sits in; also sets the tab title. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  usePageTitle(title);
  return (
    <Center p="md" style={{ flex: 1 }}>
      <Card withBorder radius="md" padding="xl" w="100%" maw={420}>
        <Stack gap="md">
          <Title order={2}>{title}</Title>
          {children}
        </Stack>
      </Card>
    </Center>
  );
}
