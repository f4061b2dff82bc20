import type { FastifyRequest } from 'fastify';
import { header } from '../../private/credentials';
import { verifyOkxSigned } from '../../private/okx';
import type { Refusal } from '../engine';
import { instrumentResolver } from '../instruments';
import { VenueError, type ParamDialect } from '../params';
import { queryValues, rawBody, type ParsedValues, type SignedProtocol } from '../signed';
import type { VenueContext } from '../venue';

/**
 * An OKX error (okx.md §0, paper-economics.md §4). `item` set: a per-item failure, answered as OKX
 * does — `code: "1"`, `msg: "All operations failed"`, the reason in `data[0].sCode/sMsg` (HTTP 200).
 * Without it: a request-level error `{ code, msg, data: [] }` with `status`.
 */
export class OkxError extends VenueError {
  constructor(
    readonly code: string,
    readonly msg: string,
    readonly item?: Record<string, string>,
    readonly status = 200,
    /** Batch answers: every item's result (code "1" all failed, "2" some failed). */
    readonly items?: unknown[],
  ) {
    super(msg);
  }

  answer(now: number) {
    if (this.items) return { status: 200, body: { code: this.code, msg: this.msg, data: this.items, inTime: '', outTime: '' } };
    if (!this.item) return { status: this.status, body: { code: this.code, msg: this.msg, data: [] } };
    return { status: this.status, body: { code: this.code, msg: this.msg, data: [{ clOrdId: '', ordId: '', tag: '', ts: String(now), ...this.item }], inTime: '', outTime: '' } };
  }
}

export const paramError = (name: string) => new OkxError('51000', `Parameter ${name} error`);
export const missing = (name: string) => new OkxError('50014', `Parameter ${name} can not be empty.`);
/** A per-item refusal of an order operation. */
export const itemError = (sCode: string, sMsg: string, ids: Record<string, string> = {}) => new OkxError('1', 'All operations failed', { ...ids, sCode, sMsg });

/** The JSON body of a POST (an object, or the first of an array) or the GET query. */
const DIALECT: ParamDialect = {
  decimal: /^\d{1,20}(\.\d{1,18})?$/,
  int: /^\d{1,16}$/,
  safeInt: false,
  numberText: String,
  missing,
  invalid: (name) => paramError(name),
};

/**
 * Demo trading is the production host plus `x-simulated-trading: 1` (trap 20): on `/sim/okx` the header
 * selects the TESTNET account; `/sim/testnet/okx` is TESTNET with or without it.
 */
export function networkOf(venue: VenueContext, req: FastifyRequest): 'MAINNET' | 'TESTNET' {
  return venue.network === 'TESTNET' || header(req.headers, 'x-simulated-trading') === '1' ? 'TESTNET' : 'MAINNET';
}

function parseBody(body: string): OkxError | ParsedValues {
  let parsed: unknown;
  try {
    parsed = body.trim() === '' ? {} : JSON.parse(body);
  } catch {
    return new OkxError('50002', 'JSON syntax error', undefined, 400);
  }
  if (Array.isArray(parsed)) {
    const items = parsed.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null);
    const first: unknown = parsed[0];
    return { values: typeof first === 'object' && first !== null && !Array.isArray(first) ? (first as Record<string, unknown>) : {}, items };
  }
  if (typeof parsed === 'object' && parsed !== null) return { values: parsed as Record<string, unknown>, items: [parsed as Record<string, unknown>] };
  return new OkxError('50002', 'JSON syntax error', undefined, 400);
}

/**
 * OKX's signed endpoints: `verifyOkxSigned` over the raw body, the trade permission (50120), answers
 * `{ code: "0", msg: "", data }` (the handler's array); demo accounts by header.
 */
export const OKX: SignedProtocol = {
  exchange: 'okx',
  dialect: DIALECT,
  async verify(req, venue) {
    const check = await verifyOkxSigned(req, req.method === 'GET' ? '' : rawBody(req), { keys: venue.keys, now: () => venue.runtime.now() });
    return check.ok ? { apiKey: check.apiKey } : new OkxError(check.code, check.msg, undefined, 401);
  },
  denied: () => new OkxError('50120', 'Your API key does not have permission to use this endpoint.', undefined, 401),
  parse: (req) => (req.method === 'GET' ? { values: queryValues(req.url.split('?')[1] ?? '') } : parseBody(rawBody(req))),
  ok: (data) => ({ code: '0', msg: '', data }),
  network: networkOf,
};

/** An instId the simulator trades (SWAP only: spot, futures and options are not simulated). */
export const instrumentOf = instrumentResolver({ missing: () => missing('instId'), unknown: (instId) => itemError('51001', `Instrument ID ${instId} does not exist.`) });

/** An answer: a per-item sCode, or (`request`) a request-level code. */
type Answer = readonly [code: string, msg: string, level?: 'request'];
const SETTINGS_REFUSED: Answer = ['59000', 'Your settings failed as you have positions or open orders.', 'request'];

/** The engine's typed refusals as OKX's sCodes (paper-economics.md §4, the error-code pages). */
const REFUSALS: Record<Refusal['code'], Answer | ((r: Refusal) => Answer)> = {
  'unknown-symbol': ['51001', 'Instrument ID does not exist.'],
  'no-market': ['51001', 'Instrument ID does not exist.'],
  'invalid-price': ['51000', 'Parameter px error'],
  'invalid-price-tick': ['51000', 'Parameter px error'],
  'invalid-trigger': ['51000', 'Parameter triggerPx error'],
  'invalid-trigger-tick': ['51000', 'Parameter triggerPx error'],
  'invalid-qty': ['51121', 'Order quantity must be a multiple of the lot size.'],
  'qty-step': ['51121', 'Order quantity must be a multiple of the lot size.'],
  'qty-below-min': ['51020', 'Your order should meet or exceed the minimum order amount.'],
  'notional-below-min': ['51020', 'Your order should meet or exceed the minimum order amount.'],
  'qty-above-max': ['51202', 'Market order amount exceeds the maximum amount.'],
  'insufficient-margin': ['51008', 'Order failed. Insufficient USDT margin in account'],
  'reduce-only-rejected': ['51169', "Order failed because you don't have any positions in this direction for this contract to reduce or close."],
  'post-only-would-take': ['51000', 'The post-only order will take liquidity in taker orders'],
  'would-immediately-trigger': ['51280', 'SL trigger price must be less than the last price'],
  'unknown-order': ['51400', 'Order cancellation failed as the order has been filled, canceled or does not exist.'],
  'order-closed': ['51400', 'Order cancellation failed as the order has been filled, canceled or does not exist.'],
  'order-not-amendable': ['51503', 'Order modification failed as the order has been filled, canceled or does not exist.'],
  'no-change': ['51503', 'Order modification failed as the order has been filled, canceled or does not exist.'],
  'duplicate-client-id': ['51016', 'Duplicated client order ID'],
  'leverage-out-of-range': ['51000', 'Parameter lever error', 'request'],
  'position-limit-exceeded': ['51004', 'Order failed. The order amount exceeds the current tier limit for the maximum amount.'],
  'margin-mode-unchanged': SETTINGS_REFUSED,
  'open-orders-exist': SETTINGS_REFUSED,
  'position-exists': SETTINGS_REFUSED,
  'invalid-order': (r) => ['51000', `Parameter ${r.field ?? 'order'} error`],
};

export function refusalError(r: Refusal, ids: Record<string, string> = {}): OkxError {
  const a = REFUSALS[r.code];
  const [code, msg, level] = typeof a === 'function' ? a(r) : a;
  return level === 'request' ? new OkxError(code, msg) : itemError(code, msg, ids);
}
