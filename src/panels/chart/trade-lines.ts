import { MANAGED_NOTE } from '../shared/trading/format';
import { dec, div, isZero, min, str, sub, toNumber } from '../../api/contracts/decimal';
import { pnlAt } from '../../api/contracts/risk';
import type { Instrument } from '../../api/contracts/exchanges';
import type { Order, Position } from '../../api/contracts/trading';
import type { PriceLine } from '../../engine';
import { orderRole as roleOf } from '../shared/trading/order-moves';

/**
 * Orders and the position on the chart (issue 12): every open order of the chart's pair is a
 * draggable line at its price (a waiting stop or take-profit at its trigger) with its size and the PnL
 * the position would book there; the position shows its entry (size, live PnL), liquidation and
 * break-even. Numbers for drawing only: the exchange's strings stay the source of truth.
 */
const PREFIX = 'order:';
/** The position's entry line (its ✕ closes the position). */
export const POSITION_LINE = 'position:entry';

/** The price an order line sits at: the trigger while it waits, else the limit price. */
export const linePriceOf = (o: Order): number | null => {
  const p = o.triggerPrice ?? o.price;
  return p === null ? null : toNumber(dec(p));
};


/**
 * PnL of `qty` of the position closed at the line's price, exact from the shared contract function
 * (`pnlAt`, the same as Positions and the server), with the contract value (an OKX inverse contract
 * is 100 USD) — a number only at the engine's edge. Linear in the quote, inverse in the coin.
 */
/** `coin`: the settle coin when the PnL is counted in a coin (inverse, quanto), else null (the quote, to cents). */
function pnlLine(position: Position, price: string, qty: string, contractValue: string, coin: string | null): Pick<PriceLine, 'pnl' | 'pnlDecimals' | 'pnlUnit'> {
  const terms = { category: position.category === 'inverse' ? ('inverse' as const) : ('linear' as const), contractSize: contractValue };
  const pnl = toNumber(dec(pnlAt({ terms, side: position.side, qty, entry: position.entryPrice, exit: price })));
  return coin !== null ? { pnl, pnlDecimals: 8, ...(coin ? { pnlUnit: coin } : {}) } : { pnl };
}

/**
 * Contract value of a position: the instrument's when known (USD per contract inverse, base coin per
 * unit linear, XBT per USD quanto); else, linear, base coin per unit from the position (baseQty ÷ size).
 */
function contractValueOf(position: Position, instrumentContractValue: string | undefined): string {
  if (instrumentContractValue !== undefined) return instrumentContractValue;
  if (position.category === 'inverse') return '1';
  return isZero(dec(position.size)) ? '1' : str(div(dec(position.baseQty), dec(position.size), 12));
}

/**
 * `managed`: bracket ids the server manages (their lines say so).
 * `closePosition`: the position's entry line gets a ✕ that closes it (SPEC allowPositionClose); every
 * order line has a ✕ that cancels the order. TEMPORARY rows (not acknowledged yet) can be neither
 * dragged nor cancelled.
 */
export function tradeLines(
  orders: readonly Order[],
  position: Position | undefined,
  opts: {
    closePosition?: boolean;
    managed?: ReadonlySet<string>;
    /** The pair's instrument as exchange-info states it: USD per contract when inverse (OKX BTC-USD-SWAP: 100), and the margin coin. */
    instrument?: Pick<Instrument, 'contractValue' | 'settle' | 'quanto'>;
  } = {},
): PriceLine[] {
  const lines: PriceLine[] = [];
  // The coin PnL is counted in: the instrument's settle currency (XBT, BTC, ETH…), never guessed from the symbol.
  const settle = opts.instrument?.settle ?? '';
  // PnL counted in a coin (to 8 decimals, with its name): inverse contracts and quantos (ETHUSD in XBT).
  const coinPnl = (p: Position) => p.category === 'inverse' || opts.instrument?.quanto === true;
  const cv = position ? contractValueOf(position, opts.instrument?.contractValue) : '1';
  for (const o of orders) {
    const price = linePriceOf(o);
    if (price === null) continue;
    const size = toNumber(sub(dec(o.qty), dec(o.filledQty)));
    const closes = position && o.side !== position.side;
    lines.push({
      id: `${PREFIX}${o.id}`,
      kind: 'order',
      role: roleOf(o),
      side: o.side === 'BUY' ? 'buy' : 'sell',
      price,
      size,
      ...(closes ? pnlLine(position, (o.triggerPrice ?? o.price)!, str(min(sub(dec(o.qty), dec(o.filledQty)), dec(position.size))), cv, coinPnl(position) ? settle : null) : {}),
      draggable: o.status !== 'TEMPORARY',
      closable: o.status !== 'TEMPORARY',
      ...(o.bracketId && opts.managed?.has(o.bracketId) ? { note: MANAGED_NOTE } : {}),
    });
  }
  if (position) {
    const side = position.side === 'BUY' ? 'buy' : 'sell';
    lines.push({
      id: POSITION_LINE,
      kind: 'position',
      role: 'entry',
      side,
      price: toNumber(dec(position.entryPrice)),
      size: toNumber(dec(position.size)),
      // The exchange's own figure, as Positions shows it.
      pnl: toNumber(dec(position.unrealisedPnl)),
      ...(coinPnl(position) ? { pnlDecimals: 8, ...(settle ? { pnlUnit: settle } : {}) } : {}),
      ...(opts.closePosition ? { closable: true } : {}),
      // A drag off it adds a take-profit or a stop-loss where it is dropped (use-position-exit.tsx).
      draggable: true,
    });
    if (position.liquidationPrice) lines.push({ id: 'position:liquidation', kind: 'position', role: 'liquidation', side, price: toNumber(dec(position.liquidationPrice)) });
    if (position.breakEvenPrice && position.breakEvenPrice !== position.entryPrice) lines.push({ id: 'position:break-even', kind: 'position', role: 'break-even', side, price: toNumber(dec(position.breakEvenPrice)) });
  }
  return lines;
}

export const orderIdOfLine = (lineId: string): string | null => (lineId.startsWith(PREFIX) ? lineId.slice(PREFIX.length) : null);
