import { Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from './use-page-title';

/**
 * A routed page whose content a later issue builds: it shows its title and what it will hold, so
 * the route tree, guards and navigation are real today.
 */
export function PlaceholderPage({ title, description }: { title: string; description: string }) {
  usePageTitle(title);
  return (
    <Stack gap="xs" p="lg">
      <Title order={2}>{title}</Title>
      <Text c="dimmed">{description}</Text>
    </Stack>
  );
}
