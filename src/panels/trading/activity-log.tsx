import { Badge, Modal, ScrollArea, Table, Text } from '@mantine/core';
import { useActivity } from '../../api/trade/managed';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** The activity log (issue 13): every action the server's jobs took for the user — what, when, which order, result. */
export function ActivityLogModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const activity = useActivity(opened);
  const rows = activity.data ?? [];
  return (
    <Modal opened={opened} onClose={onClose} title="Server activity" size="xl">
      {activity.isPending ? (
        <Text size="sm" c="dimmed">
          Reading the activity log…
        </Text>
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing yet. What the server does for your managed brackets shows here.
        </Text>
      ) : (
        <ScrollArea.Autosize mah={480}>
          <Table fz="xs" striped data-testid="activity-log">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Details</Table.Th>
                <Table.Th>Order</Table.Th>
                <Table.Th>Result</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(e.at)}</Table.Td>
                  <Table.Td>{e.action}</Table.Td>
                  <Table.Td>{e.message}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{e.orderId ?? ''}</Table.Td>
                  <Table.Td>
                    <Badge size="xs" color={e.result === 'ok' ? 'teal' : 'red'} variant="light">
                      {e.result}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
    </Modal>
  );
}
