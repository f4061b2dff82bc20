import { Table } from '@mantine/core';
import type { Fill } from '../../api/contracts/trading';
import { show } from '../shared/trading/format';
import { HistoryTableHead } from './history-table-head';

/** The pair's fills: size, price, fee in its currency, realised PnL. */
export function FillsTable({ fills }: { fills: Fill[] }) {
  return (
    <Table fz="xs" striped>
      <HistoryTableHead columns={['Time', 'Side', 'Size', 'Price', 'Fee', 'Realised PnL']} />
      <Table.Tbody>
        {fills.map((f) => (
          <Table.Tr key={f.id}>
            <Table.Td>{new Date(f.time).toLocaleString()}</Table.Td>
            <Table.Td c={f.side === 'BUY' ? 'teal' : 'red'}>{f.side}</Table.Td>
            <Table.Td>{show(f.qty)}</Table.Td>
            <Table.Td>{show(f.price)}</Table.Td>
            <Table.Td>
              {show(f.fee)} {f.feeCurrency}
            </Table.Td>
            <Table.Td>{show(f.realisedPnl, 4)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
