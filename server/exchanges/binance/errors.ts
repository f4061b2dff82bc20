import { refused, slowDown, type ErrorTable } from '../signed-request';

/**
 * Binance USDⓈ-M's error codes (binance.md §7; the simulator's paper venue answers the same): what each
 * means, the status this server answers, what may be retried and the order-form field it points at. A code
 * not listed is a 422 naming no field. Errors come with HTTP 4xx and `{ code, msg }`.
 */

export const BINANCE_ERRORS: ErrorTable = {
  codes: {
    '-1013': refused('Filter failure (quantity, price or notional filter)', { field: 'qty' }),
    '-1021': refused('Timestamp outside the recvWindow: the clock is re-measured and the call sent once more', { retry: 'resync' }),
    '-1022': refused('Signature for this request is not valid', { credential: 'apiSecret' }),
    '-1121': refused('Invalid symbol'),
    '-2011': refused('Unknown order sent (cancel of an order the exchange does not list)', { status: 404 }),
    '-2013': refused('Order does not exist', { status: 404 }),
    '-2014': refused('API-key format invalid', { credential: 'apiKey' }),
    '-2015': refused('Invalid API-key, IP, or permissions for action', { credential: 'apiKey' }),
    '-2019': refused('Margin is insufficient', { field: 'qty' }),
    '-2021': refused('Order would immediately trigger', { field: 'triggerPrice' }),
    '-2022': refused('ReduceOnly Order is rejected', { field: 'reduceOnly' }),
    '-2027': refused('Exceeded the maximum allowable position at current leverage', { field: 'qty' }),
    '-4003': refused('Quantity less than or equal to zero', { field: 'qty' }),
    '-4005': refused('Quantity greater than max quantity', { field: 'qty' }),
    '-4006': refused('Stop price less than zero', { field: 'qty' }),
    '-4013': refused('Price less than min price', { field: 'triggerPrice' }),
    '-4014': refused('Price not increased by tick size', { field: 'price' }),
    '-4015': refused('Client order id is not valid', { field: 'price' }),
    '-4016': refused('Price higher than the multiplier-up limit', { field: 'price' }),
    '-4024': refused('Price lower than the multiplier-down limit', { field: 'price' }),
    '-4028': refused('Leverage is not valid', { field: 'leverage' }),
    '-4046': refused('No need to change margin type: it already is', { alreadySo: true }),
    '-4047': refused('Margin type cannot be changed if there exists open orders', { field: 'marginMode' }),
    '-4048': refused('Margin type cannot be changed if there exists position', { field: 'marginMode' }),
    '-4161': refused('Leverage reduction is not supported in isolated margin mode with open positions', { field: 'leverage' }),
    '-4164': refused("Order's notional below the minimum (unless reduce only)", { field: 'qty' }),
    '-5022': refused('Post Only order would execute as taker: rejected', { field: 'price' }),
  },
  http: {
    // binance.md §7: 429 when a limit is broken; 418 when the IP is banned for going on. Both carry Retry-After.
    429: slowDown('Too many requests: back off for Retry-After'),
    418: slowDown('IP banned for sending on after 429s: back off for Retry-After'),
  },
  unknownSymbol: { code: '-1121', message: (symbol) => `Unknown symbol ${symbol}` },
  orderGone: { code: '-2013', message: 'Order does not exist.' },
};
