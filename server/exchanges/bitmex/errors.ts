import { refused, slowDown, type ErrorTable } from '../signed-request';

/**
 * BitMEX's errors (bitmex.md §7) carry no code: `{ error: { message, name } }` with the HTTP status, so the
 * code this server reports is the HTTP status and the message's words name the field. A status or message
 * not listed is a 422 naming no field.
 */
export const BITMEX_ERRORS: ErrorTable = {
  codes: {},
  // First match names the field (in this order); "not found" anywhere makes it a 404.
  messages: [
    { pattern: /price|tickSize/i, meaning: 'The price (or its tick)', field: 'price' },
    { pattern: /orderQty|lotSize|quantity|contracts/i, meaning: 'The quantity (or its lot)', field: 'qty' },
    { pattern: /stopPx|trigger/i, meaning: 'The trigger price', field: 'triggerPrice' },
    { pattern: /insufficient/i, meaning: 'Insufficient available balance', field: 'qty' },
    { pattern: /ReduceOnly|reduce-only/i, meaning: 'Reduce-only refused', field: 'reduceOnly' },
    { pattern: /leverage/i, meaning: 'The leverage', field: 'leverage' },
    { pattern: /not found/i, meaning: 'Not found', status: 404 },
    { pattern: /api key/i, meaning: 'The API key is unknown or disabled', credential: 'apiKey' },
    { pattern: /signature/i, meaning: 'The signature does not match', credential: 'apiSecret' },
  ],
  http: {
    404: refused('Not found (an order or instrument BitMEX does not list)', { status: 404 }),
    429: slowDown('Rate limit exceeded: back off for Retry-After, else until x-ratelimit-reset'),
  },
  unknownSymbol: { code: '400', message: (symbol) => `Unknown symbol ${symbol}` },
  orderGone: { code: '404', message: 'Not Found' },
};

/** A cancel's per-element error (HTTP 200) that means the order is gone: unknown, or no longer open. */
export const BITMEX_ORDER_GONE = /not found|Invalid orderID|existing state/i;
