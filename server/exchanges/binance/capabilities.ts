import { capabilities, routesAt } from '../descriptor';

const ORDER = '/fapi/v1/order';
/** Conditional types go through the algo service (trap 10: `/fapi/v1/order` refuses them with -4120). */
export const BINANCE_ALGO_PATH = '/fapi/v1/algoOrder';

/** What the Binance connector does (binance.md §5–§7): its order types with Binance's names, amend, margin. */
export const BINANCE_CAPABILITIES = capabilities({
  orderTypes: {
    ...routesAt(ORDER, { MARKET: 'MARKET', LIMIT: 'LIMIT' }),
    ...routesAt(BINANCE_ALGO_PATH, { STOP_MARKET: 'STOP_MARKET', STOP_LIMIT: 'STOP', TAKE_PROFIT: 'TAKE_PROFIT', TAKE_PROFIT_MARKET: 'TAKE_PROFIT_MARKET' }),
  },
  // `PUT /fapi/v1/order` modifies a limit order; "modification of untriggered conditional orders is not supported".
  amend: { plain: 'in-place', conditional: 'replace' },
  // `DELETE allOpenOrders` and `algoOpenOrders`: one call each.
  cancelAll: 'one-call',
  // `POST /fapi/v1/batchOrders`: at most 5 orders, plain ones only (conditional types there are -4120 as well).
  placeBatch: { path: '/fapi/v1/batchOrders', takes: ORDER, max: 5 },
  marginModeScope: 'symbol',
});
