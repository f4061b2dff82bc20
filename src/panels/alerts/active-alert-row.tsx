import { ActionIcon, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight, IconPencil, IconTrash } from '@tabler/icons-react';
import { useDeleteAlert } from '../../api/alerts/delete-alert';
import type { Alert } from '../../api/contracts/alerts';
import { AlertTriggerEditor, useTriggerEdit } from './alert-trigger-editor';
import { alertMarketLabel, formatDistance, formatPrice } from './format';
import { useLivePrice } from './live-prices';
import { useNetwork } from '../shared/use-network';
import classes from './alerts-panel.module.css';

/** One active alert: pair, direction, trigger (editable), distance from the live price, delete. */
export function ActiveAlertRow({ alert }: { alert: Alert }) {
  const live = useLivePrice(alert.exchange, alert.symbol);
  // The panel's prices are the user's network's: no distance for an alert listening on the other one.
  const price = alert.network === useNetwork() ? live : undefined;
  const edit = useTriggerEdit(alert);
  const { mutate: remove, isPending: deleting } = useDeleteAlert();
  const rising = alert.triggerPrice > alert.initialPrice;
  const label = `${alert.symbol} at ${formatPrice(alert.triggerPrice)}`;

  return (
    <Group gap={6} wrap="nowrap" role="listitem" aria-label={`Alert ${label}`} className={classes.row} data-testid="active-alert">
      <Tooltip label={rising ? 'Waiting for a rise' : 'Waiting for a fall'} withinPortal={false}>
        {rising ? <IconArrowUpRight size={16} color="var(--mantine-color-teal-5)" aria-label="rise" /> : <IconArrowDownRight size={16} color="var(--mantine-color-red-5)" aria-label="fall" />}
      </Tooltip>
      <Stack gap={0} className={classes.grow}>
        <Text size="sm" fw={500} truncate>
          {alert.symbol}{' '}
          <Text span size="xs" c="dimmed">
            {alertMarketLabel(alert)}
          </Text>
        </Text>
        {alert.note ? (
          <Text size="xs" c="dimmed" truncate>
            {alert.note}
          </Text>
        ) : null}
      </Stack>
      {edit.editing ? <AlertTriggerEditor symbol={alert.symbol} edit={edit} /> : <AlertTrigger alert={alert} price={price} label={label} onEdit={edit.start} />}
      <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`Delete alert ${label}`} loading={deleting} onClick={() => remove(alert.id)}>
        <IconTrash size={14} />
      </ActionIcon>
    </Group>
  );
}

/** The trigger and its distance from the live price, and the pencil that edits it. */
function AlertTrigger({ alert, price, label, onEdit }: { alert: Alert; price: number | undefined; label: string; onEdit: () => void }) {
  return (
    <>
      <Stack gap={0} align="flex-end" className={classes.numbers}>
        <Text size="sm" data-testid="alert-trigger">
          {formatPrice(alert.triggerPrice)}
        </Text>
        <Text size="xs" c="dimmed" data-testid="alert-distance" title="Distance from the live price">
          {formatDistance(alert.triggerPrice, price)}
        </Text>
      </Stack>
      <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`Edit trigger price of ${label}`} onClick={onEdit}>
        <IconPencil size={14} />
      </ActionIcon>
    </>
  );
}
