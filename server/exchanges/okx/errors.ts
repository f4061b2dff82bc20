import { refused, slowDown, type ErrorTable } from '../signed-request';

/**
 * OKX v5's codes (okx.md §7; the simulator's paper venue answers the same). `code` is a string; a refused
 * item has `code: "1"` with its own `sCode` / `sMsg` (trap 9), and the item's code is the one judged here.
 * What each means, the status this server answers, what may be retried and the order-form field it points
 * at; a code not listed is a 422 naming no field.
 */

export const OKX_ERRORS: ErrorTable = {
  codes: {
    '50011': slowDown('Rate limit reached'),
    '50061': slowDown('Sub-account rate limit exceeded'),
    '50102': refused('Timestamp request expired: the clock is re-measured and the call sent once more', { retry: 'resync' }),
    '50105': refused('OK-ACCESS-PASSPHRASE incorrect', { credential: 'passphrase' }),
    '50111': refused('Invalid OK-ACCESS-KEY', { credential: 'apiKey' }),
    '50113': refused('Invalid sign', { credential: 'apiSecret' }),
    '50119': refused("API key doesn't exist", { credential: 'apiKey' }),
    '51001': refused('Instrument ID does not exist', { field: 'symbol' }),
    '51004': refused('Order amount exceeds the current tier limit', { field: 'qty' }),
    '51006': refused('Order price is outside the price limit', { field: 'price' }),
    '51008': refused('Insufficient margin in the account', { field: 'qty' }),
    '51120': refused('Order quantity is below the minimum', { field: 'qty' }),
    '51121': refused('Order quantity must be a multiple of the lot size', { field: 'qty' }),
    '51137': refused('Buy price above the highest price limit', { field: 'price' }),
    '51138': refused('Sell price below the lowest price limit', { field: 'price' }),
    '51139': refused('Order refused for its price conditions', { field: 'price' }),
    '51169': refused('No position in this direction to reduce or close', { field: 'reduceOnly' }),
    '51170': refused('Reduce-only order refused: it would not reduce the position', { field: 'reduceOnly' }),
    '51202': refused('Market order amount exceeds the maximum amount', { field: 'qty' }),
    '51277': refused('TP trigger price must be above the last price', { field: 'triggerPrice' }),
    '51278': refused('SL trigger price must be below the last price', { field: 'triggerPrice' }),
    '51279': refused('TP trigger price must be below the last price', { field: 'triggerPrice' }),
    '51280': refused('SL trigger price must be above the last price', { field: 'triggerPrice' }),
    '51400': refused('Cancellation failed: the order is filled, cancelled or does not exist', { status: 404 }),
    '51503': refused('Modification failed: the order is filled, cancelled or does not exist', { status: 404 }),
    '51603': refused('Order does not exist', { status: 404 }),
  },
  http: {
    // okx.md §7: no rate-limit headers; a 429 is a limit counted per 2 s.
    429: slowDown('Too many requests'),
  },
  unknownSymbol: { code: '51001', message: (symbol) => `Instrument ID ${symbol} does not exist.` },
  orderGone: { code: '51603', message: 'Order does not exist' },
};
