import { refused, slowDown, type ErrorTable } from '../signed-request';

/**
 * Bybit v5's `retCode`s (bybit.md; the simulator's paper venue answers the same): every answer is HTTP 200
 * with `retCode`, non-zero an error (trap 9). What each means, the status this server answers, what may be
 * retried and the order-form field it points at; a code not listed is a 422 naming no field.
 */

export const BYBIT_ERRORS: ErrorTable = {
  codes: {
    '10001': refused('Parameter error (the message names it)'),
    '10002': refused('Request time outside the recv window: the clock is re-measured and the call sent once more', { retry: 'resync' }),
    '10003': refused('API key is invalid', { credential: 'apiKey' }),
    '10004': refused('Error sign: the signature does not match', { credential: 'apiSecret' }),
    '10006': slowDown('Too many visits: the key exceeded its rate limit'),
    '10018': slowDown('Exceeded the IP rate limit'),
    '110001': refused('Order does not exist', { status: 404 }),
    '110003': refused('Order price exceeds the allowable range', { field: 'price' }),
    '110004': refused('Wallet balance is insufficient', { field: 'qty' }),
    '110007': refused('Available balance is insufficient', { field: 'qty' }),
    '110008': refused('Order has been completed or cancelled', { field: 'price' }),
    '110012': refused('Insufficient available balance', { field: 'qty' }),
    '110013': refused('Cannot set leverage due to risk limit level', { field: 'leverage' }),
    '110014': refused('Insufficient available balance to add margin', { field: 'price' }),
    '110017': refused('Reduce-only: the quantity would be truncated to zero', { field: 'reduceOnly' }),
    '110043': refused('Set leverage has not been modified: it already is', { field: 'leverage', alreadySo: true }),
    '110044': refused('Available margin is insufficient', { field: 'qty' }),
    '110045': refused('Wallet balance is insufficient', { field: 'qty' }),
    '110079': refused('The order is being processed and cannot be changed now', { field: 'price' }),
    '110092': refused('Expected a rising trigger: the trigger price is not above the last price', { field: 'triggerPrice' }),
    '110093': refused('Expected a falling trigger: the trigger price is not below the last price', { field: 'triggerPrice' }),
    '110094': refused('Order notional value below the lower limit', { field: 'qty' }),
  },
  http: {
    429: slowDown('Too many requests'),
  },
  unknownSymbol: { code: '10001', message: (symbol) => `Unknown symbol ${symbol}` },
  orderGone: { code: '110001', message: 'Order does not exist.' },
};
