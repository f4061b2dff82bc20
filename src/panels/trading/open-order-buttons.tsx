import { Group } from '@mantine/core';
import { useSnapshot } from 'valtio';
import { dec, str } from '../../api/contracts/decimal';
import type { AmendOrderBody, Order } from '../../api/contracts/trading';
import { userSettings } from '../../state/user-settings';
import { show } from '../shared/trading/format';
import { AmendPopover } from './amend-popover';
import { ConfirmButton } from './confirm-button';

/** The Orders panel's actions, one set for every row, the same from render to render (the rows are memoised). */
export interface OpenOrderActions {
  cancel(id: string): void;
  amend(id: string, body: AmendOrderBody): void;
  execute(id: string): void;
  canExecute: boolean;
}

/** An open order's buttons: amend (price and size to the traded pair's tick and step), execute a waiting stop now (flag), cancel. */
export function OpenOrderButtons({ order: o, typeLabel, actions }: { order: Order; typeLabel: string; actions: OpenOrderActions }) {
  const s = useSnapshot(userSettings);
  const traded = o.symbol === s.tradingPair;
  return (
    <Group gap={2} wrap="nowrap">
      <AmendPopover order={o} tick={traded ? str(dec(s.tickSize)) : null} step={traded ? str(dec(s.stepSize)) : null} onAmend={(body) => actions.amend(o.id, body)} />
      {actions.canExecute && o.status === 'UNTRIGGERED' ? (
        // Executing a waiting stop trades at market now (a reduce-only one closes the position): the close-position confirm flag.
        <ConfirmButton
          size="compact-xs"
          variant="subtle"
          confirm={s.confirmClosePosition}
          question={`${o.side === 'BUY' ? 'Buy' : 'Sell'} ${show(o.qty)} ${o.symbol} at market now${o.reduceOnly ? ' (reduces the position)' : ''}?`}
          onConfirm={() => actions.execute(o.id)}
          aria-label={`Execute ${o.symbol} ${typeLabel} now`}
        >
          Execute
        </ConfirmButton>
      ) : null}
      <ConfirmButton size="compact-xs" variant="subtle" color="red" confirm={s.confirmCancelOrder} question="Cancel this order?" onConfirm={() => actions.cancel(o.id)} aria-label={`Cancel ${o.symbol} ${typeLabel}`}>
        Cancel
      </ConfirmButton>
    </Group>
  );
}
