/**
 * The IP request weight of Binance USDⓈ-M's signed endpoints, as the exchange's REST documentation states it
 * (binance.md §5–§7): placing an order costs the IP nothing (it counts on the account's order counters),
 * reading costs 1–40. Public endpoints whose weight depends on their parameters set it themselves (rest.ts).
 */
const WEIGHTS: Record<string, number | ((query: Record<string, string | undefined>) => number)> = {
  'POST /fapi/v1/order': 0,
  'PUT /fapi/v1/order': 1,
  'GET /fapi/v1/order': 1,
  'DELETE /fapi/v1/order': 1,
  'POST /fapi/v1/batchOrders': 5,
  'PUT /fapi/v1/batchOrders': 5,
  'DELETE /fapi/v1/batchOrders': 1,
  'DELETE /fapi/v1/allOpenOrders': 1,
  'GET /fapi/v1/openOrder': 1,
  'GET /fapi/v1/openOrders': (q) => (q.symbol === undefined ? 40 : 1),
  'GET /fapi/v1/allOrders': 5,
  'POST /fapi/v1/algoOrder': 0,
  'GET /fapi/v1/algoOrder': 1,
  'DELETE /fapi/v1/algoOrder': 1,
  'DELETE /fapi/v1/algoOpenOrders': 1,
  'GET /fapi/v1/openAlgoOrders': (q) => (q.symbol === undefined ? 40 : 1),
  'GET /fapi/v1/allAlgoOrders': 5,
  'GET /fapi/v1/userTrades': 5,
  'GET /fapi/v2/positionRisk': 5,
  'GET /fapi/v3/positionRisk': 5,
  'GET /fapi/v2/account': 5,
  'GET /fapi/v3/account': 5,
  'GET /fapi/v2/balance': 5,
  'GET /fapi/v3/balance': 5,
  'GET /fapi/v1/accountConfig': 5,
  'GET /fapi/v1/commissionRate': 20,
  'GET /fapi/v1/positionSide/dual': 30,
  'GET /fapi/v1/multiAssetsMargin': 30,
};

/** The weight of a request to `url` (the exchange's path, with or without the simulator's mount); 1 when not listed. */
export function binanceWeight(method: string, url: string, query: Record<string, string | undefined>): number {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).replace(/^.*?(?=\/fapi\/)/, '');
  const w = WEIGHTS[`${method} ${path}`];
  return w === undefined ? 1 : typeof w === 'number' ? w : w(query);
}
