import { Badge, Card, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ApiKey } from '../../api/contracts/api-keys';
import { formatDateTime } from './api-keys-table';
import { exchangeName, NETWORK_LABELS } from './exchange-options';
import { PermissionBadges, PermissionWarnings } from './permission-badges';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

/** What is known about a stored key — never its secret. */
export function ApiKeyDetails({ apiKey }: { apiKey: ApiKey }) {
  return (
    <Stack gap="sm">
      <Card withBorder radius="md" padding="lg" aria-label="API key details">
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="lg">
          <Field label="Exchange">{exchangeName(apiKey.exchange)}</Field>
          <Field label="Network">
            <Badge size="sm" variant="outline" color={apiKey.network === 'MAINNET' ? 'blue' : 'gray'}>
              {NETWORK_LABELS[apiKey.network]}
            </Badge>
          </Field>
          <Field label="Key">
            <Code>{apiKey.apiKeyMasked}</Code>
          </Field>
          <Field label="Permissions">
            <Group gap={4}>
              <PermissionBadges permissions={apiKey.permissions} />
            </Group>
          </Field>
          <Field label="Added">{formatDateTime(apiKey.createdAt)}</Field>
          <Field label="Last checked with the exchange">{apiKey.lastValidatedAt ? formatDateTime(apiKey.lastValidatedAt) : 'Never'}</Field>
        </SimpleGrid>
      </Card>
      <PermissionWarnings permissions={apiKey.permissions} />
    </Stack>
  );
}
