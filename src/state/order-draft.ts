import { proxy } from 'valtio/vanilla';

/**
 * An order prepared outside Order entry (SPEC `tradeMode`: a Shift+click on the chart), which the
 * Order entry panel takes over: a limit at `price`, buying below the last price and selling above.
 * `seq` changes on every new draft, so the same price twice still arrives.
 */
export interface OrderDraft {
  seq: number;
  price: string | null;
  side: 'BUY' | 'SELL' | null;
}

export const orderDraft = proxy<OrderDraft>({ seq: 0, price: null, side: null });

export function prepareLimitOrder(price: string, side: 'BUY' | 'SELL'): void {
  orderDraft.price = price;
  orderDraft.side = side;
  orderDraft.seq++;
}


/**
 * The Order entry panel's own "Buy" / "Sell" press, for the trading hotkeys (issue 22): they send
 * exactly what the form would send — its type, bracket and size — through the form's own checks;
 * null while no Order entry is open.
 */
export const orderEntryActions: { press: ((side: 'BUY' | 'SELL') => void) | null } = { press: null };
