import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useDailyLoss } from '../../api/funded-users/get-daily-loss';
import { formatUsdDecimal } from '../../ui/usd-decimal';

/**
 * Each key's loss today against the user's daily loss limit, from the fills the server has recorded
 * (the admin holds no key password: open positions are not in it). Shows a lock; cannot lift it.
 */
export function DailyLossList({ userId }: { userId: string }) {
  const day = useDailyLoss(userId);
  if (!day.data) return null;
  const { dailyLossLimit, keys, dayEnd } = day.data;
  return (
    <Stack gap={4} data-testid="daily-loss">
      <Text size="sm" c="dimmed">
        {dailyLossLimit === null
          ? 'No daily loss limit is set.'
          : `Daily loss limit $${formatUsdDecimal(dailyLossLimit)}. Today (UTC) from the recorded fills; open positions not included. A locked key opens at 00:00 UTC (${dayEnd}).`}
      </Text>
      {keys.length ? (
        <Table withTableBorder aria-label="Loss today per key" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Key</Table.Th>
              <Table.Th>Loss today</Table.Th>
              <Table.Th>Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keys.map((k) => (
              <Table.Tr key={k.apiKeyId}>
                <Table.Td>
                  <Group gap={6}>
                    <Text size="sm">{k.name}</Text>
                    <Text size="xs" c="dimmed">
                      {k.exchange} · {k.network}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td ff="monospace">
                  ${formatUsdDecimal(k.lossToday)}
                  {dailyLossLimit === null ? '' : ` of $${formatUsdDecimal(dailyLossLimit)}`}
                </Table.Td>
                <Table.Td>
                  {k.locked ? (
                    <Badge color="red" variant="light">
                      Locked until 00:00 UTC
                    </Badge>
                  ) : (
                    <Badge color="teal" variant="light">
                      Open
                    </Badge>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}
