import { Group } from '@mantine/core';
import { useSnapshot } from 'valtio';
import { dec, str } from '../../api/contracts/decimal';
import type { Order } from '../../api/contracts/trading';
import { userSettings } from '../../state/user-settings';
import { show } from '../shared/trading/format';
import { AmendPopover } from './amend-popover';
import { ConfirmButton } from './confirm-button';
import type { useAmendOrder } from '../../api/trade/amend-order';
import type { useCancelOrder } from '../../api/trade/cancel-order';
import type { useExecuteOrder } from '../../api/trade/execute-order';

/** The Orders panel's actions, one set for every row. */
export interface OpenOrderActions {
  cancel: ReturnType<typeof useCancelOrder>;
  amend: ReturnType<typeof useAmendOrder>;
  execute: ReturnType<typeof useExecuteOrder>;
  canExecute: boolean;
}

/** An open order's buttons: amend (price and size to the traded pair's tick and step), execute a waiting stop now (flag), cancel. */
export function OpenOrderButtons({ order: o, typeLabel, actions }: { order: Order; typeLabel: string; actions: OpenOrderActions }) {
  const s = useSnapshot(userSettings);
  const traded = o.symbol === s.tradingPair;
  return (
    <Group gap={2} wrap="nowrap">
      <AmendPopover order={o} tick={traded ? str(dec(s.tickSize)) : null} step={traded ? str(dec(s.stepSize)) : null} onAmend={(body) => actions.amend.mutate({ id: o.id, body })} />
      {actions.canExecute && o.status === 'UNTRIGGERED' ? (
        // Executing a waiting stop trades at market now (a reduce-only one closes the position): the close-position confirm flag.
        <ConfirmButton
          size="compact-xs"
          variant="subtle"
          confirm={s.confirmClosePosition}
          question={`${o.side === 'BUY' ? 'Buy' : 'Sell'} ${show(o.qty)} ${o.symbol} at market now${o.reduceOnly ? ' (reduces the position)' : ''}?`}
          onConfirm={() => actions.execute.mutate(o.id)}
          aria-label={`Execute ${o.symbol} ${typeLabel} now`}
        >
          Execute
        </ConfirmButton>
      ) : null}
      <ConfirmButton size="compact-xs" variant="subtle" color="red" confirm={s.confirmCancelOrder} question="Cancel this order?" onConfirm={() => actions.cancel.mutate(o.id)} aria-label={`Cancel ${o.symbol} ${typeLabel}`}>
        Cancel
      </ConfirmButton>
    </Group>
  );
}
