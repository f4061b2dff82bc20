import { Table } from '@mantine/core';

/** The header row of the order history's tables. */
export function HistoryTableHead({ columns }: { columns: string[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((h) => (
          <Table.Th key={h}>{h}</Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}
