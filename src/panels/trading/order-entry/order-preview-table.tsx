import { Table } from '@mantine/core';
import { show } from '../../shared/trading/format';
import { usdOf } from '../order-entry-text';
import { isNumberText, type Preview } from '../order-math';

/** A bracket's numbers before it is sent: the money at risk (a coin's in USD too), the R of each target, the margin, the liquidation estimate. */
export function OrderPreviewTable({ p, category, currency, entryPrice, leverage }: { p: Preview; category: 'linear' | 'inverse'; currency: string | undefined; entryPrice: string; leverage: number }) {
  return (
    <Table fz="xs" withRowBorders={false} verticalSpacing={1} data-testid="order-preview">
      <Table.Tbody>
        <Table.Tr>
          <Table.Td>At risk</Table.Td>
          <Table.Td ta="right" data-testid="risk-amount">
            {show(p.riskAmount, category === 'inverse' ? 8 : 4)} {currency}
            {category === 'inverse' && isNumberText(entryPrice) ? ` ≈ $${usdOf(p.riskAmount, entryPrice)}` : ''}
          </Table.Td>
        </Table.Tr>
        {p.rMultiples.map((r, i) => (
          <Table.Tr key={i}>
            <Table.Td>Take-profit {i + 1}</Table.Td>
            <Table.Td ta="right">{r}R</Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr>
          <Table.Td>Margin at {leverage}×</Table.Td>
          <Table.Td ta="right">{show(p.margin, 4)}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Td>Est. liquidation</Table.Td>
          <Table.Td ta="right">{show(p.liquidation, 2)}</Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}
