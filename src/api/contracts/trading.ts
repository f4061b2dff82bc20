import { z } from 'zod';
import { exchangeIdSchema, marketCategorySchema, networkSchema } from './common';
import { cmp, dec, decimalStringSchema } from './decimal';

/**
 * One trading model for four exchanges (DESIGN §3.1). Connectors map each exchange's shapes to these
 * and back; the `/v1/trade` routes, the account stream and the trading panels speak only these.
 * Quantities, prices and money are decimal strings (`"0.01"`, `"65000.5"`), never floats.
 */

// SPEC §3 enumerations, exactly.
export const ORDER_STATUSES = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'REJECTED', 'EXPIRED', 'UNTRIGGERED', 'OUT_OF_SYNC', 'TEMPORARY'] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

export const ORDER_TYPES = ['LIMIT', 'MARKET', 'STOP', 'STOP_LIMIT', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET', 'CONDITIONAL'] as const;
export const orderTypeSchema = z.enum(ORDER_TYPES);
export type OrderType = z.infer<typeof orderTypeSchema>;

export const SIDES = ['BUY', 'SELL'] as const;
export const sideSchema = z.enum(SIDES);
export type Side = z.infer<typeof sideSchema>;

export const MARGIN_MODES = ['CROSS', 'ISOLATED', 'CROSSED'] as const;
export const marginModeSchema = z.enum(MARGIN_MODES);
export type MarginMode = z.infer<typeof marginModeSchema>;

export const TIME_IN_FORCES = ['GTC', 'IOC', 'FOK'] as const;
export const timeInForceSchema = z.enum(TIME_IN_FORCES);
export type TimeInForce = z.infer<typeof timeInForceSchema>;

export const ORDER_ROLES = ['entry', 'stop-loss', 'take-profit'] as const;
export const orderRoleSchema = z.enum(ORDER_ROLES);
export type OrderRole = z.infer<typeof orderRoleSchema>;

/** Statuses after which an order never changes again. */
export const FINAL_ORDER_STATUSES: readonly OrderStatus[] = ['FILLED', 'CANCELED', 'REJECTED', 'EXPIRED'];
/** Types that wait for a trigger price. */
export const TRIGGERED_ORDER_TYPES: readonly OrderType[] = ['STOP', 'STOP_LIMIT', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET', 'CONDITIONAL'];
/** Types that carry a limit price. */
export const PRICED_ORDER_TYPES: readonly OrderType[] = ['LIMIT', 'STOP', 'STOP_LIMIT', 'TAKE_PROFIT'];

const symbolSchema = z.string().min(1).max(40).regex(/^[A-Za-z0-9._:-]+$/, 'Use the exchange symbol, e.g. BTCUSDT or BTC-USDT-SWAP');
/** Prices, sizes: positive, up to 18 decimal places (any exchange's precision). */
const positive = () => decimalStringSchema({ maxScale: 18 });
const instant = z.iso.datetime({ offset: true });

/**
 * Idempotency key of an order: the same id twice is the same order (a retried request never places a
 * second one). Binance takes `[.A-Z:/a-z0-9_-]{1,36}`, Bybit and BitMEX 36 characters, OKX letters and
 * digits 1–32: the common subset is letters and digits, at most 32, so one id works on every exchange
 * unchanged (a bracket's legs append a letter and digit to the bracket's id, still within 32).
 */
export const clientOrderIdSchema = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9]+$/, 'Letters and digits only, at most 32 (every exchange accepts that)');

/** The idempotency key of a request without a body of its own (cancel-all): same rules as a client order id. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

export const orderSchema = z.object({
  id: z.string(),
  clientOrderId: z.string().nullable(),
  exchange: exchangeIdSchema,
  symbol: z.string(),
  side: sideSchema,
  type: orderTypeSchema,
  status: orderStatusSchema,
  /** In the exchange's order unit (contracts for inverse and OKX), like `Position.size`. */
  qty: z.string(),
  filledQty: z.string(),
  price: z.string().nullable(),
  triggerPrice: z.string().nullable(),
  avgFillPrice: z.string().nullable(),
  reduceOnly: z.boolean(),
  postOnly: z.boolean(),
  timeInForce: timeInForceSchema,
  createdAt: instant,
  updatedAt: instant,
  bracketId: z.string().nullable(),
  role: orderRoleSchema.nullable(),
});
export type Order = z.infer<typeof orderSchema>;

export const positionSchema = z.object({
  exchange: exchangeIdSchema,
  symbol: z.string(),
  side: sideSchema,
  /** In the exchange's unit: contracts for inverse (and OKX), base coin otherwise. Positive. */
  size: z.string(),
  /** The same size in the base coin (BTC for XBTUSD), for the screen and for risk. */
  baseQty: z.string(),
  /** Value at the mark: USD(T) for linear, coin for inverse. */
  notional: z.string(),
  entryPrice: z.string(),
  markPrice: z.string(),
  liquidationPrice: z.string().nullable(),
  breakEvenPrice: z.string(),
  unrealisedPnl: z.string(),
  realisedPnl: z.string(),
  leverage: z.string(),
  marginMode: marginModeSchema,
  margin: z.string(),
  category: marketCategorySchema,
});
export type Position = z.infer<typeof positionSchema>;

export const balanceSchema = z.object({
  currency: z.string(),
  total: z.string(),
  available: z.string(),
  unrealisedPnl: z.string(),
  marginUsed: z.string(),
  assets: z.array(z.object({ currency: z.string(), total: z.string(), available: z.string() })),
});
export type Balance = z.infer<typeof balanceSchema>;

export const fillSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  symbol: z.string(),
  side: sideSchema,
  qty: z.string(),
  price: z.string(),
  fee: z.string(),
  feeCurrency: z.string(),
  realisedPnl: z.string(),
  time: instant,
  /** True when the exchange closed the position (liquidation / ADL). */
  liquidation: z.boolean().default(false),
});
export type Fill = z.infer<typeof fillSchema>;

export const tradeCursorPageSchema = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), nextCursor: z.string().nullable() });

// ---- Requests ---------------------------------------------------------------------------------

export const symbolQuerySchema = z.object({ symbol: symbolSchema.optional() });
export const historyQuerySchema = z.object({ symbol: symbolSchema, cursor: z.string().max(512).optional() });

const orderCommon = {
  symbol: symbolSchema,
  side: sideSchema,
  qty: positive(),
  reduceOnly: z.boolean().default(false),
  clientOrderId: clientOrderIdSchema.optional(),
};

/** `POST /v1/trade/{apiKeyId}/orders`: one order. Which prices a type needs is checked by type. */
export const placeOrderBodySchema = z
  .object({
    ...orderCommon,
    type: z.enum(['MARKET', 'LIMIT', 'STOP_MARKET', 'STOP_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET']),
    price: positive().optional(),
    triggerPrice: positive().optional(),
    postOnly: z.boolean().default(false),
    timeInForce: timeInForceSchema.default('GTC'),
  })
  .strict()
  .superRefine((o, ctx) => {
    const needsPrice = o.type === 'LIMIT' || o.type === 'STOP_LIMIT' || o.type === 'TAKE_PROFIT';
    const needsTrigger = o.type !== 'MARKET' && o.type !== 'LIMIT';
    if (needsPrice && !o.price) ctx.addIssue({ code: 'custom', path: ['price'], message: `A ${o.type} order needs a price` });
    if (!needsPrice && o.price) ctx.addIssue({ code: 'custom', path: ['price'], message: `A ${o.type} order takes no price` });
    if (needsTrigger && !o.triggerPrice) ctx.addIssue({ code: 'custom', path: ['triggerPrice'], message: `A ${o.type} order needs a trigger price` });
    if (!needsTrigger && o.triggerPrice) ctx.addIssue({ code: 'custom', path: ['triggerPrice'], message: `A ${o.type} order takes no trigger price` });
    if (o.postOnly && o.type !== 'LIMIT') ctx.addIssue({ code: 'custom', path: ['postOnly'], message: 'Only a limit order can be post-only' });
    if (o.postOnly && o.timeInForce !== 'GTC') ctx.addIssue({ code: 'custom', path: ['timeInForce'], message: 'A post-only order rests: use GTC' });
  });
export type PlaceOrderBody = z.infer<typeof placeOrderBodySchema>;

export const MAX_TAKE_PROFITS = 5;

/**
 * Server management of a bracket (FF_ENABLE_SEMI_AUTO, issue 13), beyond the guard every bracket
 * has (see `bracketBodySchema`): move the stop to break-even (entry ± fees) when the first
 * take-profit fills; trail the stop by a distance (price) or a percentage of the last price once in
 * profit.
 */
export const managedBracketSchema = z
  .object({
    breakEven: z.boolean(),
    trail: z.object({ mode: z.enum(['price', 'percent']), value: positive() }).strict().nullable(),
  })
  .strict()
  .refine((m) => m.breakEven || m.trail !== null, { message: 'Turn on break-even or trailing' })
  .refine((m) => m.trail === null || m.trail.mode !== 'percent' || !/^\d+(\.\d+)?$/.test(m.trail.value) || cmp(dec(m.trail.value), dec(50)) < 0, { path: ['trail', 'value'], message: 'A trailing distance must be below 50%' });
export type ManagedBracket = z.infer<typeof managedBracketSchema>;

/**
 * `POST /v1/trade/{apiKeyId}/brackets`: entry, then a reduce-only stop-loss and 1–5 take-profits,
 * all or nothing (issue 21). Every bracket is guarded by the server, which needs the key's
 * server-custody consent: a market entry gets its stop and targets at once; a resting entry (limit,
 * stop) gets them the moment it fills, so a stop can never expire before its entry; when the
 * position closes by any path, the bracket's remaining orders are cancelled. `clientOrderId` is the
 * idempotency key: the same id again answers the first bracket.
 */
export const bracketBodySchema = z
  .object({
    symbol: symbolSchema,
    side: sideSchema,
    qty: positive(),
    entry: z
      .object({ type: z.enum(['MARKET', 'LIMIT', 'STOP_MARKET', 'STOP_LIMIT']), price: positive().optional(), triggerPrice: positive().optional() })
      .strict(),
    stopLoss: z.object({ triggerPrice: positive() }).strict(),
    takeProfits: z
      .array(z.object({ price: positive(), qtyPercent: z.number().positive().max(100) }).strict())
      .min(1, 'At least one take-profit')
      .max(MAX_TAKE_PROFITS, `At most ${MAX_TAKE_PROFITS} take-profits`),
    clientOrderId: clientOrderIdSchema.optional(),
    managed: managedBracketSchema.optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    const total = b.takeProfits.reduce((s, tp) => s + Math.round(tp.qtyPercent * 100), 0);
    if (total !== 10_000) ctx.addIssue({ code: 'custom', path: ['takeProfits'], message: 'Take-profit sizes must add up to 100%' });
    const needsPrice = b.entry.type === 'LIMIT' || b.entry.type === 'STOP_LIMIT';
    const needsTrigger = b.entry.type === 'STOP_MARKET' || b.entry.type === 'STOP_LIMIT';
    if (needsPrice && !b.entry.price) ctx.addIssue({ code: 'custom', path: ['entry', 'price'], message: `A ${b.entry.type} entry needs a price` });
    if (needsTrigger && !b.entry.triggerPrice) ctx.addIssue({ code: 'custom', path: ['entry', 'triggerPrice'], message: `A ${b.entry.type} entry needs a trigger price` });
  });
export type BracketBody = z.infer<typeof bracketBodySchema>;

/** `POST /v1/trade/{apiKeyId}/ladders` (FF_LADDER_ORDERS): `count` limit orders from `from` to `to`. */
export const ladderBodySchema = z
  .object({
    symbol: symbolSchema,
    side: sideSchema,
    qty: positive(),
    from: positive(),
    to: positive(),
    count: z.number().int().min(2).max(50),
    distribution: z.enum(['linear', 'weighted']),
    reduceOnly: z.boolean().default(false),
    postOnly: z.boolean().default(false),
    /** Idempotency key: the same id again answers the first ladder (its orders get `<derived id>L1…Ln`). */
    clientOrderId: clientOrderIdSchema.optional(),
  })
  .strict();
export type LadderBody = z.infer<typeof ladderBodySchema>;

/** `POST ladders` answered 207: an order was refused and undoing the ones placed failed — what is still live. */
export const ladderPartialSchema = z.object({ message: z.string(), orders: z.array(orderSchema) });
export type LadderPartialResult = z.infer<typeof ladderPartialSchema>;

/** `PATCH /v1/trade/{apiKeyId}/orders/{orderId}`: any of price, trigger, qty. */
export const amendOrderBodySchema = z
  .object({ price: positive().optional(), triggerPrice: positive().optional(), qty: positive().optional() })
  .strict()
  .refine((b) => b.price !== undefined || b.triggerPrice !== undefined || b.qty !== undefined, { message: 'Nothing to change: send price, triggerPrice or qty' });
export type AmendOrderBody = z.infer<typeof amendOrderBodySchema>;

/** `POST /v1/trade/{apiKeyId}/positions/close`. */
export const closePositionBodySchema = z
  .object({
    symbol: symbolSchema,
    percent: z.number().positive().max(100),
    type: z.enum(['MARKET', 'LIMIT']),
    price: positive().optional(),
    /** Idempotency key and the close order's client id: a retried close acts once. */
    clientOrderId: clientOrderIdSchema.optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.type === 'LIMIT' && !b.price) ctx.addIssue({ code: 'custom', path: ['price'], message: 'A limit close needs a price' });
    if (b.type === 'MARKET' && b.price) ctx.addIssue({ code: 'custom', path: ['price'], message: 'A market close takes no price' });
  });
export type ClosePositionBody = z.infer<typeof closePositionBodySchema>;

export const leverageBodySchema = z.object({ symbol: symbolSchema, leverage: z.number().positive().max(200) }).strict();
export type LeverageBody = z.infer<typeof leverageBodySchema>;

export const marginModeBodySchema = z.object({ symbol: symbolSchema, marginMode: z.enum(['CROSS', 'ISOLATED']) }).strict();
export type MarginModeBody = z.infer<typeof marginModeBodySchema>;

/** `GET /v1/trade/{apiKeyId}/symbol-settings?symbol=`: the product symbol whose settings are read. */
export const symbolSettingsQuerySchema = z.object({ symbol: symbolSchema });

/**
 * A symbol's leverage and margin mode as the exchange holds them for the key, with or without a
 * position (issue 22): what the next order of the symbol is margined with. `symbol` is the product's
 * symbol; `leverage` is decimal text as the exchange states it (`"20"`, `"12.5"`).
 */
export const symbolSettingsSchema = z.object({
  symbol: z.string(),
  leverage: decimalStringSchema(),
  marginMode: z.enum(['CROSS', 'ISOLATED']),
});
export type SymbolSettings = z.infer<typeof symbolSettingsSchema>;

/** A leg the server places when a resting entry fills (it is not on the exchange yet). */
export const plannedLegSchema = z.object({
  role: z.enum(['stop-loss', 'take-profit']),
  type: orderTypeSchema,
  side: sideSchema,
  qty: z.string(),
  price: z.string().nullable(),
  triggerPrice: z.string().nullable(),
  clientOrderId: z.string(),
});
export type PlannedLeg = z.infer<typeof plannedLegSchema>;

/**
 * `POST brackets`: the bracket's id, its legs as placed (entry, stop-loss, take-profits; a resting
 * entry alone) and the legs planned for when a resting entry fills. 201, or 207 with `partial` when a
 * leg was refused and cancelling what had been placed failed: `partial.live` says which legs are
 * still on the exchange (a 4xx answer means nothing of the bracket is live).
 */
export const bracketResultSchema = z.object({
  bracketId: z.string(),
  orders: z.array(orderSchema),
  planned: z.array(plannedLegSchema).default([]),
  /** True when the server also manages the bracket (break-even, trailing: `managed` was sent and accepted). */
  managed: z.boolean(),
  partial: z
    .object({
      message: z.string(),
      live: z.array(z.object({ role: orderRoleSchema, orderId: z.string().nullable(), clientOrderId: z.string(), state: z.enum(['open', 'position', 'unknown']) })),
    })
    .optional(),
});
export type BracketResult = z.infer<typeof bracketResultSchema>;

/** Whether `text` decodes as percent-encoding: ids this API answers do (their parts are `encodeURIComponent`ed). */
export const decodes = (text: string): boolean => {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * An order id as `/orders` answered it (sent through `encodeURIComponent` once more in the path). One
 * whose percent-encoding does not decode (`%E0%A4%A`, `%`) was never answered: 400 naming `orderId`.
 */
export const orderIdSchema = z
  .string()
  .min(1)
  .max(200)
  .refine(decodes, 'Malformed percent-encoding: send the order id as the API answered it, encoded with encodeURIComponent');
export const orderIdParamsSchema = z.object({ apiKeyId: z.uuid(), orderId: orderIdSchema });
export const apiKeyIdParamsSchema = z.object({ apiKeyId: z.uuid() });
export const cancelAllQuerySchema = z.object({ symbol: symbolSchema });

/** A refused order (422): the exchange's own code and message, or the funded-user limit, at its field. */
export const tradeRefusalSchema = z.object({
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  /** The exchange's own code when it refused (`-2019`, `110007`, `51008`…). */
  exchangeCode: z.string().optional(),
});

// ---- Account stream (DESIGN §3.3) -------------------------------------------------------------

export const streamClientMessageSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('auth'), accessToken: z.string().min(1).max(4096) }),
  z.object({ op: z.literal('subscribe'), apiKeyId: z.uuid(), keyPassword: z.string().min(1).max(256) }),
  z.object({ op: z.literal('unsubscribe'), apiKeyId: z.uuid() }),
  z.object({ op: z.literal('ping') }),
]);
export type StreamClientMessage = z.infer<typeof streamClientMessageSchema>;

export const STREAM_STATES = ['connecting', 'connected', 'reconnecting', 'error'] as const;
export const streamStateSchema = z.enum(STREAM_STATES);
export type StreamState = z.infer<typeof streamStateSchema>;

const keyed = { apiKeyId: z.string() };
export const streamServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('authenticated') }),
  z.object({ type: z.literal('status'), ...keyed, state: streamStateSchema, reason: z.string().optional(), network: networkSchema.optional() }),
  z.object({ type: z.literal('order'), ...keyed, order: orderSchema }),
  z.object({ type: z.literal('position'), ...keyed, position: positionSchema }),
  z.object({ type: z.literal('balance'), ...keyed, balance: balanceSchema }),
  z.object({ type: z.literal('fill'), ...keyed, fill: fillSchema }),
  /** Sent after a (re)connect's REST reconcile: the whole open state, replacing what the client held. */
  z.object({ type: z.literal('snapshot'), ...keyed, orders: z.array(orderSchema), positions: z.array(positionSchema), balance: balanceSchema }),
  z.object({ type: z.literal('error'), message: z.string(), apiKeyId: z.string().optional() }),
  z.object({ type: z.literal('pong') }),
]);
export type StreamServerMessage = z.infer<typeof streamServerMessageSchema>;

/** A bracket the server guards (and maybe manages), as `GET /v1/trade/{apiKeyId}/managed` lists it (running ones first). */
export const managedBracketInfoSchema = z.object({
  bracketId: z.string(),
  symbol: z.string(),
  side: sideSchema,
  /** Break-even / trailing, when the bracket is managed; null when it is only guarded. */
  options: managedBracketSchema.nullable(),
  /** waiting: the entry rests and `planned` goes on when it fills; open: in position, protected; finished. */
  phase: z.enum(['waiting', 'open', 'finished']),
  planned: z.array(plannedLegSchema),
  /** running: the server watches it; done: finished (closed, stopped out); failed: stopped with `message`. */
  state: z.enum(['running', 'done', 'failed']),
  /** Whether the stop has been moved to break-even. */
  breakEvenDone: z.boolean(),
  message: z.string().nullable(),
  createdAt: instant,
});
export type ManagedBracketInfo = z.infer<typeof managedBracketInfoSchema>;

/** One action a server-side job took (the activity log): what, when, which order, result. */
export const activityEntrySchema = z.object({
  id: z.uuid(),
  at: instant,
  job: z.string(),
  action: z.string(),
  orderId: z.string().nullable(),
  result: z.enum(['ok', 'failed']),
  message: z.string(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;
