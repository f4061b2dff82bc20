import { capabilities, routesAt } from '../descriptor';

/** Stops and take-profits: a `trigger` order, or (reduce-only) a `conditional` one with an sl / tp leg. */
export const OKX_ALGO_PATH = '/api/v5/trade/order-algo';

/** What the OKX connector does (okx.md §5–§7): net position mode, SWAP instruments, sizes in contracts. */
export const OKX_CAPABILITIES = capabilities({
  orderTypes: {
    // A GTC limit; post-only, IOC and FOK limits go as `post_only`, `ioc`, `fok`.
    ...routesAt('/api/v5/trade/order', { MARKET: 'market', LIMIT: 'limit' }),
    ...routesAt(OKX_ALGO_PATH, { STOP_MARKET: 'trigger', STOP_LIMIT: 'trigger', TAKE_PROFIT: 'trigger', TAKE_PROFIT_MARKET: 'trigger' }),
  },
  // `amend-order` changes a plain order; algo orders are replaced, new first.
  amend: { plain: 'in-place', conditional: 'replace' },
  // No cancel-all of a symbol: each open order (and algo) is cancelled in turn.
  cancelAll: 'each-order',
  // `POST batch-orders`: at most 20 plain orders; `order-algo` has no batch, so stops and take-profits go one call each (at once).
  placeBatch: { path: '/api/v5/trade/batch-orders', takes: '/api/v5/trade/order', max: 20 },
  // The mode is each order's `tdMode`: the terminal keeps the one last set per symbol for the key.
  marginModeScope: 'order',
});
