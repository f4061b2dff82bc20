import { ActionIcon, Group, NumberInput, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight, IconCheck, IconPencil, IconTrash, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useDeleteAlert } from '../../api/alerts/delete-alert';
import { useUpdateAlert } from '../../api/alerts/update-alert';
import type { Alert } from '../../api/contracts/alerts';
import { EXCHANGE_DISPLAY_NAMES } from '../../api/contracts/common';
import { toastError } from '../../ui/toast';
import { formatDistance, formatPrice } from './format';
import { useLivePrice, usePriceFeed } from './live-prices';
import classes from './alerts-panel.module.css';

/** One active alert: pair, direction, trigger (editable), distance from the live price, delete. */
export function ActiveAlertRow({ alert }: { alert: Alert }) {
  const price = useLivePrice(alert.exchange, alert.symbol);
  const feed = usePriceFeed();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<number | ''>(alert.triggerPrice);
  const { mutate: update, isPending: saving } = useUpdateAlert();
  const { mutate: remove, isPending: deleting } = useDeleteAlert();
  const rising = alert.triggerPrice > alert.initialPrice;
  const label = `${alert.symbol} at ${formatPrice(alert.triggerPrice)}`;

  const save = async () => {
    if (typeof draft !== 'number' || draft <= 0 || !feed) return;
    if (draft === alert.triggerPrice) {
      setEditing(false);
      return;
    }
    try {
      // Moving the trigger judges the direction afresh, from the price now (contract: PATCH).
      const initialPrice = await feed.nextPrice({ exchange: alert.exchange, symbol: alert.symbol });
      if (initialPrice === draft) {
        toastError('The trigger price equals the current price: choose another one');
        return;
      }
      update({ id: alert.id, triggerPrice: draft, initialPrice }, { onSuccess: () => setEditing(false) });
    } catch (error) {
      toastError(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <Group gap={6} wrap="nowrap" role="listitem" aria-label={`Alert ${label}`} className={classes.row} data-testid="active-alert">
      <Tooltip label={rising ? 'Waiting for a rise' : 'Waiting for a fall'} withinPortal={false}>
        {rising ? <IconArrowUpRight size={16} color="var(--mantine-color-teal-5)" aria-label="rise" /> : <IconArrowDownRight size={16} color="var(--mantine-color-red-5)" aria-label="fall" />}
      </Tooltip>
      <Stack gap={0} className={classes.grow}>
        <Text size="sm" fw={500} truncate>
          {alert.symbol}{' '}
          <Text span size="xs" c="dimmed">
            {EXCHANGE_DISPLAY_NAMES[alert.exchange]}
          </Text>
        </Text>
        {alert.note ? (
          <Text size="xs" c="dimmed" truncate>
            {alert.note}
          </Text>
        ) : null}
      </Stack>
      {editing ? (
        <Group gap={2} wrap="nowrap">
          <NumberInput
            size="xs"
            w={110}
            aria-label={`New trigger price for ${alert.symbol}`}
            min={0}
            decimalScale={10}
            hideControls
            autoFocus
            value={draft}
            onChange={(value) => setDraft(typeof value === 'number' ? value : '')}
            onKeyDown={(event) => {
              if (event.key === 'Enter') void save();
              if (event.key === 'Escape') setEditing(false);
            }}
          />
          <ActionIcon size="sm" variant="subtle" color="teal" aria-label="Save trigger price" loading={saving} onClick={() => void save()}>
            <IconCheck size={14} />
          </ActionIcon>
          <ActionIcon size="sm" variant="subtle" color="gray" aria-label="Cancel" onClick={() => setEditing(false)}>
            <IconX size={14} />
          </ActionIcon>
        </Group>
      ) : (
        <>
          <Stack gap={0} align="flex-end" className={classes.numbers}>
            <Text size="sm" data-testid="alert-trigger">
              {formatPrice(alert.triggerPrice)}
            </Text>
            <Text size="xs" c="dimmed" data-testid="alert-distance" title="Distance from the live price">
              {formatDistance(alert.triggerPrice, price)}
            </Text>
          </Stack>
          <ActionIcon
            size="sm"
            variant="subtle"
            color="gray"
            aria-label={`Edit trigger price of ${label}`}
            onClick={() => {
              setDraft(alert.triggerPrice);
              setEditing(true);
            }}
          >
            <IconPencil size={14} />
          </ActionIcon>
        </>
      )}
      <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`Delete alert ${label}`} loading={deleting} onClick={() => remove(alert.id)}>
        <IconTrash size={14} />
      </ActionIcon>
    </Group>
  );
}
