import { ActionIcon, Group, NumberInput } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useUpdateAlert } from '../../api/alerts/update-alert';
import type { Alert } from '../../api/contracts/alerts';
import { toastError } from '../../ui/toast';
import { useNetwork } from '../shared/use-network';
import { otherNetworkReason } from './format';
import { usePriceFeed } from './live-prices';

/** Editing an active alert's trigger in place: the draft, and `save` (which judges the direction afresh). */
export function useTriggerEdit(alert: Alert) {
  const feed = usePriceFeed();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<number | ''>(alert.triggerPrice);
  const { mutate: update, isPending: saving } = useUpdateAlert();
  const network = useNetwork();

  const save = async () => {
    if (typeof draft !== 'number' || draft <= 0 || !feed) return;
    if (draft === alert.triggerPrice) {
      setEditing(false);
      return;
    }
    const elsewhere = otherNetworkReason(alert, network, 'move');
    if (elsewhere) {
      toastError(elsewhere);
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
  const start = () => {
    setDraft(alert.triggerPrice);
    setEditing(true);
  };
  return { editing, draft, setDraft, saving, save, start, cancel: () => setEditing(false) };
}

export type TriggerEdit = ReturnType<typeof useTriggerEdit>;

/** The new trigger's field (Enter saves, Escape cancels) with save and cancel buttons. */
export function AlertTriggerEditor({ symbol, edit }: { symbol: string; edit: TriggerEdit }) {
  return (
    <Group gap={2} wrap="nowrap">
      <NumberInput
        size="xs"
        w={110}
        aria-label={`New trigger price for ${symbol}`}
        min={0}
        decimalScale={10}
        hideControls
        autoFocus
        value={edit.draft}
        onChange={(value) => edit.setDraft(typeof value === 'number' ? value : '')}
        onKeyDown={(event) => {
          if (event.key === 'Enter') void edit.save();
          if (event.key === 'Escape') edit.cancel();
        }}
      />
      <ActionIcon size="sm" variant="subtle" color="teal" aria-label="Save trigger price" loading={edit.saving} onClick={() => void edit.save()}>
        <IconCheck size={14} />
      </ActionIcon>
      <ActionIcon size="sm" variant="subtle" color="gray" aria-label="Cancel" onClick={edit.cancel}>
        <IconX size={14} />
      </ActionIcon>
    </Group>
  );
}
