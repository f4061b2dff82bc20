import { Text } from '@mantine/core';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { dec, toNumber } from '../../api/contracts/decimal';
import type { Order, Position } from '../../api/contracts/trading';
import type { OrderFlowFeed } from '../../api/market/order-flow';
import { useTradeLimits } from '../../api/trade/get-trade-limits';
import { useOpenOrders } from '../../api/trade/list-open-orders';
import { usePositions } from '../../api/trade/list-positions';
import type { PanelProps } from '../shared/panel-props';
import { AccountGate } from '../shared/trading/account-gate';
import { DayLockBanner } from '../shared/trading/day-lock-banner';
import { show } from '../shared/trading/format';
import { TradeLineConfirm } from '../shared/trading/trade-line-confirm';
import { useTradingAccount, type TradingAccount } from '../shared/trading/use-trading-account';
import classes from './dom-ladder.module.css';
import { LadderGridView, type RowOrders } from './ladder-grid';
import { LadderHeader } from './ladder-header';
import { orderPrice, type Touch } from './ladder-orders';
import { askRow, bidRow, centreOf, ladderGrid, midOf, nearestRow, rowStep, type LadderGrid } from './ladder-rows';
import { useLadderActions } from './use-ladder-actions';
import { useLadderMarket } from './use-ladder-market';
import type { LadderPainter } from './ladder-painter';
import { useLadderPaint } from './use-ladder-paint';
import { useOrderFlowFeed } from './use-order-flow-feed';
import { useRowCount } from './use-row-count';

/**
 * The DOM ladder (issue 25 §2): a fixed price ladder around the mid of the traded pair with the book's
 * bid and ask sizes, the trader's orders and the position's entry on their rows. A click places a
 * limit (Shift: a stop-market) at the row, a chip dragged to another row moves its order, its ✕
 * cancels it — on the key and account every trading panel uses (`shared/trading/`).
 */
export function DomLadderPanel(_props: PanelProps) {
  const account = useTradingAccount();
  return (
    <AccountGate account={account}>
      <DomLadderBody account={account} />
    </AccountGate>
  );
}

/** The book's state, read again when the feed changes (React renders only when it moved). */
function useFeedStatus(feed: OrderFlowFeed | null) {
  const subscribe = useCallback((l: () => void) => (feed ? feed.onChange(l) : () => undefined), [feed]);
  // `book()` at full depth: the view is shared, and a depth of 1 would shrink the arrays the Order book then regrows.
  const status = useSyncExternalStore(subscribe, () => (feed ? feed.book().status : null));
  const error = useSyncExternalStore(subscribe, () => (feed ? feed.book().error : undefined));
  return { status, error };
}

/** The best bid and ask as the exchange wrote them (what a click is judged against). */
const touchOf = (feed: OrderFlowFeed | null): Touch => {
  const b = feed?.book(1);
  return { bid: b?.bids[0]?.price ?? null, ask: b?.asks[0]?.price ?? null };
};

function DomLadderBody({ account }: { account: TradingAccount }) {
  const market = useLadderMarket(account);
  const feed = useOrderFlowFeed(market.key, market.terms.tickSize);
  const { status, error } = useFeedStatus(feed);
  const { mine, position } = useAccountRows(account, market.symbol);
  const locked = useTradeLimits(account.tradeKey).data?.locked === true;
  const [size, setSize] = useState(market.terms.minQty);
  const [group, setGroup] = useState(1);
  const [centre, setCentre] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const count = useRowCount(box);
  const step = rowStep(market.terms.tickSize, group);

  // A new pair or grouping centres afresh on the mid (the first frame of the book sets it).
  useEffect(() => setCentre(null), [market.symbol, step]);
  // The size follows the pair's minimum until one is typed.
  useEffect(() => setSize(market.terms.minQty), [market.symbol, market.terms.minQty]);

  const grid = useMemo(() => (centre === null ? null : ladderGrid(centre, step, count, market.terms.tickSize)), [centre, step, count, market.terms.tickSize]);
  const painter = useRef<LadderPainter | null>(null);
  // The pointer on the rows (or a chip being dragged: the browser ends pointer events when a drag
  // starts) holds the centre: a row must not change its price under a click or a drop.
  const pointerOn = useRef(false);
  const dragging = useRef(false);
  useLadderPaint(feed, grid, painter, (mid) => setCentre(centreOf(mid, step)), () => pointerOn.current || dragging.current);
  const recentre = () => {
    const mid = feed ? midOf(feed.book(1)) : null;
    if (mid !== null) setCentre(centreOf(mid, step));
  };

  const actions = useLadderActions(account, market, { size, touch: () => touchOf(feed), locked, position, orders: mine });
  const { rows, above, below } = useMemo(() => (grid ? ordersByRow(grid, mine) : { rows: new Map<number, RowOrders>(), above: 0, below: 0 }), [grid, mine]);
  const entry = useMemo(() => entryOf(grid, position), [grid, position]);
  return (
    <div className={classes.root} data-testid="dom-ladder">
      <DayLockBanner tradeKey={account.tradeKey} />
      <LadderHeader symbol={market.symbol} terms={market.terms} size={size} onSize={setSize} group={group} onGroup={setGroup} onCentre={recentre} status={status} {...(error ? { error } : {})} />
      {/* A line kept in place (the rows do not jump when a message comes): a refusal, else the orders beyond the rows. */}
      <Text size="xs" mih={18} c="dimmed">
        {actions.note ? (
          <Text span inherit c={actions.note.tone === 'error' ? 'red' : 'dimmed'} role="alert" data-testid="dom-ladder-message">
            {actions.note.text}
          </Text>
        ) : above + below > 0 ? (
          <span data-testid="dom-ladder-off-rows">{offRowsText(above, below)}</span>
        ) : null}
      </Text>
      <div
        ref={box}
        style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}
        onPointerEnter={() => (pointerOn.current = true)}
        onPointerMove={() => (pointerOn.current = true)}
        onPointerLeave={() => (pointerOn.current = false)}
        onDragStart={() => (dragging.current = true)}
        onDragEnd={() => (dragging.current = false)}
      >
        {grid ? (
          <LadderGridView grid={grid} orders={rows} entry={entry} stale={status !== 'live'} painter={painter} onCell={actions.clickAt} onDrop={actions.dropAt} onCancel={actions.cancelAsk} />
        ) : (
          <Text size="xs" c="dimmed" ta="center" mt="md" data-testid="dom-ladder-waiting">
            {status === 'error' ? (error ?? 'The order book is not available') : 'Waiting for the order book…'}
          </Text>
        )}
      </div>
      <TradeLineConfirm pending={actions.pending} onClose={actions.closePending} onConfirm={actions.act} testId="dom-ladder-confirm" />
    </div>
  );
}

/** The traded pair's open orders and position of the unlocked key (live from the account stream). */
function useAccountRows(account: TradingAccount, symbol: string) {
  const orders = useOpenOrders(account.tradeKey);
  const positions = usePositions(account.tradeKey);
  const mine = useMemo(() => (orders.data ?? []).filter((o) => o.symbol === symbol), [orders.data, symbol]);
  const position = useMemo(() => (positions.data ?? []).find((p) => p.symbol === symbol), [positions.data, symbol]);
  return { mine, position };
}

/** Each order on its row (a buy grouped down, a sell up, as the book's sides), and how many are above or below the rows. */
function ordersByRow(grid: LadderGrid, orders: readonly Order[]): { rows: Map<number, RowOrders>; above: number; below: number } {
  const count = grid.prices.length;
  const rows = new Map<number, { buys: Order[]; sells: Order[] }>();
  let above = 0;
  let below = 0;
  for (const o of orders) {
    const price = orderPrice(o);
    if (price === null) continue;
    const p = toNumber(dec(price));
    const i = o.side === 'BUY' ? bidRow(grid, p, count) : askRow(grid, p, count);
    if (i < 0) {
      if (p > grid.top) above++;
      else below++;
      continue;
    }
    const row = rows.get(i) ?? { buys: [], sells: [] };
    (o.side === 'BUY' ? row.buys : row.sells).push(o);
    rows.set(i, row);
  }
  return { rows, above, below };
}

const ordersText = (n: number) => `${n} order${n === 1 ? '' : 's'}`;

/** "2 orders above the rows · 1 order below": orders the ladder does not reach (re-centre or group to see them). */
function offRowsText(above: number, below: number): string {
  return [above ? `${ordersText(above)} above the rows` : null, below ? `${ordersText(below)} below the rows` : null].filter(Boolean).join(' · ');
}

/** The position's entry row and what its mark says. */
function entryOf(grid: LadderGrid | null, position: Position | undefined): { row: number; text: string } {
  if (!grid || !position) return { row: -1, text: '' };
  const row = nearestRow(grid, toNumber(dec(position.entryPrice)), grid.prices.length);
  return { row, text: `Position entry ${show(position.entryPrice)} (${position.side === 'BUY' ? 'long' : 'short'} ${show(position.size)})` };
}
