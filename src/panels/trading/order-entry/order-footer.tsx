import { Button, Stack, Text } from '@mantine/core';
import { useConfig } from '../../../api/config/get-config';
import { useActionsPending } from '../../../api/trade/use-trade-action';
import { PartBoundary } from '../../../ui/part-boundary';
import { show } from '../../shared/trading/format';
import { NO_CUSTODY_TEXT } from '../../shared/trading/custody-consent';
import { summaryLine } from '../order-entry-text';
import type { OrderEntryValues } from './order-entry-form';
import type { OrderPreview } from './use-order-preview';
import type { OrderSubmit } from './use-order-submit';

/**
 * The action and the risk it carries, which stay in view however far the form scrolls (issue 22:
 * 1280×720): the one-line summary and the button that sends the order. A server that cannot hold
 * credentials cannot guard brackets: it says so, and the button is off for a bracket.
 */
export function OrderFooter({ v, preview, symbol, order }: { v: OrderEntryValues; preview: OrderPreview; symbol: string; order: OrderSubmit }) {
  const noCustody = useConfig().data?.custody === false;
  const { bracket, ladder, p, margin, worth, size } = preview;
  const busy = useActionsPending(order.sending);
  return (
    <Stack gap={4} pt={4} pb={2} data-testid="order-footer" style={{ position: 'sticky', bottom: 0, zIndex: 2, background: 'var(--mantine-color-body)', borderTop: '1px solid var(--mantine-color-default-border)' }}>
      {bracket && noCustody ? (
        <Text size="xs" c="orange" data-testid="no-custody">
          {NO_CUSTODY_TEXT}
        </Text>
      ) : null}
      <PartBoundary label="The summary">
        <Text size="xs" c="dimmed" data-testid="order-summary" truncate>
          {summaryLine({ bracket, preview: p, currency: margin?.currency ?? '', riskPercent: v.riskPercent, worth, sizeMode: v.sizeMode })}
        </Text>
      </PartBoundary>
      <Button size="sm" color={v.side === 'BUY' ? 'teal' : 'red'} loading={busy} disabled={bracket && noCustody} onClick={() => void order.submit()} data-testid="place-order">
        <PartBoundary label="The label">
          {v.side === 'BUY' ? 'Buy' : 'Sell'} {show(size)} {symbol}
          {ladder ? ` in ${v.count} orders` : ''}
        </PartBoundary>
      </Button>
    </Stack>
  );
}
