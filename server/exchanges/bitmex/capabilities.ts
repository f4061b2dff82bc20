import { capabilities, routesAt } from '../descriptor';

/**
 * What the BitMEX connector does (bitmex.md §5–§7): every type is one `POST /order` with BitMEX's `ordType`
 * (Stop = stop-market, MarketIfTouched / LimitIfTouched = take-profits), triggers on the last price.
 */
export const BITMEX_CAPABILITIES = capabilities({
  orderTypes: routesAt('/api/v1/order', { MARKET: 'Market', LIMIT: 'Limit', STOP_MARKET: 'Stop', STOP_LIMIT: 'StopLimit', TAKE_PROFIT: 'LimitIfTouched', TAKE_PROFIT_MARKET: 'MarketIfTouched' }),
  // `PUT /order` changes orderQty, price and stopPx of any open order, untriggered ones included.
  amend: { plain: 'in-place', conditional: 'in-place' },
  cancelAll: 'one-call',
  // `POST /order/bulk`: every type in one call (BitMEX states no count; 10 keeps a 50-order ladder to 5 calls within its 10/s burst).
  placeBatch: { path: '/api/v1/order/bulk', takes: '/api/v1/order', max: 10 },
  marginModeScope: 'symbol',
});
