import { Badge, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconListSearch } from '@tabler/icons-react';
import type { AdminTradeAuditEntry } from '../../api/contracts/funded-users';
import { useTradeAudit } from '../../api/funded-users/list-trade-audit';
import { formatDateTime } from '../../settings/api-keys/api-keys-table';
import { DataTable } from '../../ui/data-table';
import { LoadMore } from '../../ui/load-more';
import { DailyLossList } from './daily-loss-list';

/** `/v1/users/:userId/trade/:apiKeyId/orders` → `/orders`: the part after the key is what was done. */
const action = (route: string) => route.replace(/^.*\/trade\/:apiKeyId/, '') || '/';

/**
 * On a funded user's keys page (issue 21): each key's day against the daily loss limit, and every
 * mutating request an admin sent on the user's keys — when, who, which key, what, and the answer.
 */
export function TradeAuditSection({ userId }: { userId: string }) {
  const audit = useTradeAudit(userId);
  const rows = audit.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Card withBorder radius="md" padding="lg" data-testid="trade-audit-section">
      <Stack gap="sm">
        <Title order={4}>Trading by admins and today’s loss</Title>
        <DailyLossList userId={userId} />
        <DataTable<AdminTradeAuditEntry>
          withTableBorder
          borderRadius="md"
          minHeight={rows.length ? undefined : 140}
          fetching={audit.isLoading}
          records={rows}
          idAccessor="id"
          noRecordsText="No admin has traded on this user’s keys"
          noRecordsIcon={<IconListSearch size={28} aria-hidden />}
          aria-label="Admin trading audit"
          columns={[
            { accessor: 'at', title: 'Time', render: (r) => formatDateTime(r.at) },
            { accessor: 'actorEmail', title: 'Admin', render: (r) => r.actorEmail ?? 'Deleted account' },
            { accessor: 'apiKeyName', title: 'Key', render: (r) => r.apiKeyName ?? `Deleted key (${r.apiKeyId.slice(0, 8)})` },
            {
              accessor: 'route',
              title: 'Request',
              render: (r) => (
                <Stack gap={2}>
                  <Text size="sm" ff="monospace">
                    {r.method} {action(r.route)}
                  </Text>
                  {r.body === null || r.body === undefined ? null : (
                    <Code fz="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                      {JSON.stringify(r.body)}
                    </Code>
                  )}
                </Stack>
              ),
            },
            {
              accessor: 'result',
              title: 'Result',
              render: (r) => (
                <Group gap={6} wrap="nowrap" align="flex-start">
                  <Badge size="sm" variant="light" color={r.status < 400 ? 'teal' : 'red'}>
                    {r.status}
                  </Badge>
                  <Text size="sm" lineClamp={3}>
                    {r.result}
                  </Text>
                </Group>
              ),
            },
          ]}
        />
        <LoadMore shown={rows.length} hasMore={audit.hasNextPage} loading={audit.isFetchingNextPage} onLoadMore={() => void audit.fetchNextPage()} />
      </Stack>
    </Card>
  );
}
