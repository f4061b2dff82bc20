import { ActionIcon, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useDeleteAlert } from '../../api/alerts/delete-alert';
import { useRearmAlert } from '../../api/alerts/rearm-alert';
import type { Alert } from '../../api/contracts/alerts';
import { toastError } from '../../ui/toast';
import { useNetwork } from '../shared/use-network';
import { alertMarketLabel, formatPrice, formatWhen, otherNetworkReason } from './format';
import { usePriceFeed } from './live-prices';
import classes from './alerts-panel.module.css';

/** One triggered alert: when and at what price it fired; re-arm (from the price now) or delete. */
export function TriggeredAlertRow({ alert }: { alert: Alert }) {
  const feed = usePriceFeed();
  const [fetchingPrice, setFetchingPrice] = useState(false);
  const { mutate: rearm, isPending: rearming } = useRearmAlert();
  const { mutate: remove, isPending: deleting } = useDeleteAlert();
  const label = `${alert.symbol} at ${formatPrice(alert.triggerPrice)}`;
  const network = useNetwork();

  const onRearm = async () => {
    if (!feed) return;
    const elsewhere = otherNetworkReason(alert, network, 're-arm');
    if (elsewhere) {
      toastError(elsewhere);
      return;
    }
    setFetchingPrice(true);
    try {
      // Re-armed from the live price: the alert then waits for the price to come back to the trigger.
      const initialPrice = await feed.nextPrice({ exchange: alert.exchange, symbol: alert.symbol });
      if (initialPrice === alert.triggerPrice) toastError('The price is at the trigger right now: re-arm it in a moment');
      else rearm({ id: alert.id, initialPrice });
    } catch (error) {
      toastError(error instanceof Error ? error.message : String(error));
    } finally {
      setFetchingPrice(false);
    }
  };

  return (
    <Group gap={6} wrap="nowrap" role="listitem" aria-label={`Triggered alert ${label}`} className={classes.row} data-testid="triggered-alert">
      <Stack gap={0} className={classes.grow}>
        <Text size="sm" fw={500} truncate>
          {alert.symbol}{' '}
          <Text span size="xs" c="dimmed">
            {alertMarketLabel(alert)}
          </Text>
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {alert.triggeredAt ? formatWhen(alert.triggeredAt) : ''}
          {alert.note ? ` · ${alert.note}` : ''}
        </Text>
      </Stack>
      <Stack gap={0} align="flex-end" className={classes.numbers}>
        <Text size="sm">{formatPrice(alert.triggerPrice)}</Text>
        <Text size="xs" c="dimmed" title="The live price that fired it" data-testid="alert-triggered-price">
          {alert.triggeredPrice !== null ? `at ${formatPrice(alert.triggeredPrice)}` : ''}
        </Text>
      </Stack>
      <Tooltip label="Re-arm from the current price" withinPortal={false}>
        <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`Re-arm alert ${label}`} loading={fetchingPrice || rearming} onClick={() => void onRearm()}>
          <IconRefresh size={14} />
        </ActionIcon>
      </Tooltip>
      <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`Delete alert ${label}`} loading={deleting} onClick={() => remove(alert.id)}>
        <IconTrash size={14} />
      </ActionIcon>
    </Group>
  );
}
