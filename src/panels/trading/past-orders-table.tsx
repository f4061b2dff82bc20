import { Table } from '@mantine/core';
import type { Order } from '../../api/contracts/trading';
import { show } from '../shared/trading/format';
import { HistoryTableHead } from './history-table-head';

/** The pair's past orders, as the exchange reports them. */
export function PastOrdersTable({ orders }: { orders: Order[] }) {
  return (
    <Table fz="xs" striped>
      <HistoryTableHead columns={['Time', 'Type', 'Side', 'Status', 'Price', 'Trigger', 'Size', 'Filled', 'Avg']} />
      <Table.Tbody>
        {orders.map((o) => (
          <Table.Tr key={o.id}>
            <Table.Td>{new Date(o.createdAt).toLocaleString()}</Table.Td>
            <Table.Td>{o.type}</Table.Td>
            <Table.Td c={o.side === 'BUY' ? 'teal' : 'red'}>{o.side}</Table.Td>
            <Table.Td>{o.status}</Table.Td>
            <Table.Td>{show(o.price)}</Table.Td>
            <Table.Td>{show(o.triggerPrice)}</Table.Td>
            <Table.Td>{show(o.qty)}</Table.Td>
            <Table.Td>{show(o.filledQty)}</Table.Td>
            <Table.Td>{show(o.avgFillPrice)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
