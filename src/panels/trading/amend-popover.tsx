import { Button, Group, Popover, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { cmp, dec } from '../../api/contracts/decimal';
import type { AmendOrderBody, Order } from '../../api/contracts/trading';
import { isNumberText, snapPrice, snapQty } from './order-math';

/** A valid typed value that differs from the order's, compared exactly ("65000.0" is no change from "65000"). */
const changed = (typed: string, was: string | null): boolean => isNumberText(typed) && (was === null || cmp(dec(typed), dec(was)) !== 0);

/**
 * Inline amend of an open order: its price (resting limits), trigger (waiting stops) and size, snapped
 * to the tick and step; only what changed is sent.
 */
/** `tick` / `step` null: the order is of another pair than the one traded (no grid known here; the server checks it). */
export function AmendPopover({ order, tick, step, onAmend }: { order: Order; tick: string | null; step: string | null; onAmend: (body: AmendOrderBody) => void }) {
  const [open, setOpen] = useState(false);
  const [price, setPrice] = useState(order.price ?? '');
  const [trigger, setTrigger] = useState(order.triggerPrice ?? '');
  const [qty, setQty] = useState(order.qty);
  const waiting = order.status === 'UNTRIGGERED';
  const body: AmendOrderBody = {
    ...(order.price !== null && changed(price, order.price) ? { price } : {}),
    ...(waiting && changed(trigger, order.triggerPrice) ? { triggerPrice: trigger } : {}),
    ...(changed(qty, order.qty) ? { qty } : {}),
  };
  return (
    <Popover opened={open} onChange={setOpen} withArrow shadow="md" position="bottom-end">
      <Popover.Target>
        <Button size="compact-xs" variant="subtle" onClick={() => setOpen((o) => !o)} aria-label={`Edit ${order.symbol} order`}>
          Edit
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (Object.keys(body).length) onAmend(body);
            setOpen(false);
          }}
        >
          <Stack gap={4} w={180}>
            {order.price !== null ? <TextInput size="xs" label="Price" value={price} onChange={(e) => setPrice(e.currentTarget.value)} onBlur={() => tick && setPrice(snapPrice(price, tick))} /> : null}
            {waiting && order.triggerPrice !== null ? <TextInput size="xs" label="Trigger" value={trigger} onChange={(e) => setTrigger(e.currentTarget.value)} onBlur={() => tick && setTrigger(snapPrice(trigger, tick))} /> : null}
            <TextInput size="xs" label="Size" value={qty} onChange={(e) => setQty(e.currentTarget.value)} onBlur={() => step && setQty(snapQty(qty, step))} />
            <Group justify="flex-end" gap={4}>
              <Button size="compact-xs" variant="default" onClick={() => setOpen(false)}>
                Keep
              </Button>
              <Button size="compact-xs" type="submit" disabled={!Object.keys(body).length}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
