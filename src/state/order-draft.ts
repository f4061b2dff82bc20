import { proxy } from 'valtio';

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
 * The size Order entry would send now (typed, or sized from risk) and its pair, for the buy / sell
 * market hotkeys; `qty` is '' while Order entry is closed or its size is empty.
 */
export const orderEntrySize = proxy<{ symbol: string | null; qty: string }>({ symbol: null, qty: '' });
