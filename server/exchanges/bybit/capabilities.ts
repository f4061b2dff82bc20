import { capabilities, routesAt } from '../descriptor';

/**
 * What the Bybit connector does (bybit.md, unified account, one-way mode): every type is one `order/create`
 * with `orderType` Limit or Market; conditional ones add `triggerPrice` + `triggerDirection` (last price).
 */
export const BYBIT_CAPABILITIES = capabilities({
  orderTypes: routesAt('/v5/order/create', { MARKET: 'Market', LIMIT: 'Limit', STOP_MARKET: 'Market', STOP_LIMIT: 'Limit', TAKE_PROFIT: 'Limit', TAKE_PROFIT_MARKET: 'Market' }),
  // `POST /v5/order/amend` changes qty, price and triggerPrice of any open order, untriggered ones included.
  amend: { plain: 'in-place', conditional: 'in-place' },
  cancelAll: 'one-call',
  // `POST /v5/order/create-batch`: every type, conditional ones included; 10 a call (linear's documented limit was 10, now 20).
  placeBatch: { path: '/v5/order/create-batch', takes: '/v5/order/create', max: 10 },
  // trap 24: the unified account's margin mode is account-wide.
  marginModeScope: 'account',
});
