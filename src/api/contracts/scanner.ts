import { z } from 'zod';
import { exchangeIdSchema, marketCategorySchema } from './common';

/**
 * The scanner (issue 14, FF_ENABLE_SCANNER): one row per perpetual of the enabled exchanges with
 * its 24 h ticker, funding, open interest and volatility. The server fetches them once per
 * exchange for every user (`server/services/scanner/`) and pushes changed rows over
 * `/v1/scanner/stream`; these schemas are the wire format both ways.
 *
 * Numbers are JSON numbers, not decimal strings (STYLE 11 is about money that is computed with):
 * the scanner only shows, sorts and filters these values; nothing is priced or sized from them.
 */

/** Every `/v1/scanner` route answers 403 with this while FF_ENABLE_SCANNER is off. */
export const SCANNER_DISABLED_MESSAGE = 'The scanner is turned off (FF_ENABLE_SCANNER)';

const nullableNumber = z.number().finite().nullable();

/**
 * One perpetual. `symbol` is the product's pair id (the chart's symbol: `BTCUSDT`, bitmex `XBTUSD`,
 * okx `BTCUSDT` for `BTC-USDT-SWAP`). A value the exchange does not publish is null.
 */
export const scannerRowSchema = z.object({
  exchange: exchangeIdSchema,
  symbol: z.string().min(1).max(64),
  base: z.string().max(32),
  quote: z.string().max(32),
  category: marketCategorySchema,
  /** Last traded price. */
  last: nullableNumber,
  /** Change over the exchange's rolling 24 h, in percent (−0.6 = −0.6 %). */
  changePercent: nullableNumber,
  /**
   * 24 h volume in the quote currency (USDT, USD…): turnover on linear contracts, USD contracts on
   * inverse ones — comparable across exchanges, unlike the exchanges' own volume units (trap 5).
   */
  quoteVolume: nullableNumber,
  /** 24 h range: (high − low) ÷ low, in percent. */
  rangePercent: nullableNumber,
  /** Current (predicted) funding rate per funding period, as a fraction (0.0001 = 0.01 %). */
  fundingRate: nullableNumber,
  /** When that rate is next paid, ms since epoch. */
  nextFundingTime: nullableNumber,
  /**
   * Open interest as notional in the quote currency. Null where the exchange publishes it only per
   * symbol (binance: one request per pair, not worth ~500 requests a refresh).
   */
  openInterest: nullableNumber,
  /** Volatility: ATR over the last 14 closed 1 h candles ÷ the last close, in percent. */
  atrPercent: nullableNumber,
});
export type ScannerRow = z.infer<typeof scannerRowSchema>;

/** The value fields of a row (what live updates carry and the table can sort by, besides the names). */
export const SCANNER_VALUE_FIELDS = ['last', 'changePercent', 'quoteVolume', 'rangePercent', 'fundingRate', 'nextFundingTime', 'openInterest', 'atrPercent'] as const;
export type ScannerValueField = (typeof SCANNER_VALUE_FIELDS)[number];

/** A live update of one row: its symbol plus the fields that changed. */
export const scannerRowPatchSchema = scannerRowSchema
  .pick({ symbol: true })
  .extend(scannerRowSchema.pick({ last: true, changePercent: true, quoteVolume: true, rangePercent: true, fundingRate: true, nextFundingTime: true, openInterest: true, atrPercent: true }).partial().shape);
export type ScannerRowPatch = z.infer<typeof scannerRowPatchSchema>;

/**
 * Live updates on the wire, compactly: rows that changed the same fields share a block naming the
 * fields once, each row an array `[symbol, ...values]` in that order. Several times smaller and
 * faster to parse than an object per row (a push may carry thousands of rows).
 */
export const scannerUpdateBlockSchema = z
  .object({
    fields: z.array(z.enum(SCANNER_VALUE_FIELDS)).min(1).max(SCANNER_VALUE_FIELDS.length),
    rows: z.array(z.tuple([z.string().min(1).max(64)], nullableNumber)),
  })
  .refine((b) => b.rows.every((r) => r.length === b.fields.length + 1), { message: 'Each row holds its symbol and one value per field' });
export type ScannerUpdateBlock = z.infer<typeof scannerUpdateBlockSchema>;

/** Row patches → update blocks (grouped by the fields they change, in `SCANNER_VALUE_FIELDS` order). */
export function packRowPatches(patches: readonly ScannerRowPatch[]): ScannerUpdateBlock[] {
  const blocks = new Map<string, ScannerUpdateBlock>();
  for (const patch of patches) {
    const fields = SCANNER_VALUE_FIELDS.filter((f) => patch[f] !== undefined);
    if (fields.length === 0) continue;
    const key = fields.join(',');
    let block = blocks.get(key);
    if (!block) blocks.set(key, (block = { fields, rows: [] }));
    block.rows.push([patch.symbol, ...fields.map((f) => patch[f] ?? null)]);
  }
  return [...blocks.values()];
}

/**
 * How fresh one exchange's rows are. `ok`: fresh; `stale`: the last refresh failed and the rows are
 * the last good ones (`message` says why, naming the exchange); `error`: nothing could be loaded.
 */
export const scannerExchangeStatusSchema = z.object({
  exchange: exchangeIdSchema,
  state: z.enum(['ok', 'stale', 'error']),
  message: z.string().nullable(),
  /** When the 24 h tickers were fetched (ms), null if never. */
  tickersAt: z.number().nullable(),
  /** When the ATR candles were fetched (ms), null while the first round is still running. */
  atrAt: z.number().nullable(),
  /** Whether the exchange's ticker stream feeds the rows between refreshes. */
  live: z.boolean(),
});
export type ScannerExchangeStatus = z.infer<typeof scannerExchangeStatusSchema>;

/** `GET /v1/scanner/{exchange}`: that exchange's rows (502/504 naming it when nothing is cached). */
export const scannerExchangeSnapshotSchema = z.object({
  exchange: exchangeIdSchema,
  rows: z.array(scannerRowSchema),
  status: scannerExchangeStatusSchema,
});
export type ScannerExchangeSnapshot = z.infer<typeof scannerExchangeSnapshotSchema>;

/**
 * `GET /v1/scanner?exchanges=`: the rows of every requested (enabled) exchange that answered, and
 * every exchange's status — one exchange down leaves the others on screen.
 */
export const scannerSnapshotSchema = z.object({
  rows: z.array(scannerRowSchema),
  exchanges: z.array(scannerExchangeStatusSchema),
});
export type ScannerSnapshot = z.infer<typeof scannerSnapshotSchema>;

/** `exchanges=binance,bybit` (default: every enabled exchange; disabled ones are left out). */
export const scannerQuerySchema = z.object({
  exchanges: z
    .string()
    .max(64)
    .optional()
    .transform((s, ctx) => {
      if (s === undefined || s.trim() === '') return undefined;
      const out: z.infer<typeof exchangeIdSchema>[] = [];
      for (const part of s.split(',')) {
        const parsed = exchangeIdSchema.safeParse(part.trim());
        if (!parsed.success) {
          ctx.addIssue({ code: 'custom', message: `Unknown exchange: ${part.trim()}` });
          return z.NEVER;
        }
        if (!out.includes(parsed.data)) out.push(parsed.data);
      }
      return out;
    }),
});
export const scannerParamsSchema = z.object({ exchange: exchangeIdSchema });

// ------------------------------------------------------------------ stream (/v1/scanner/stream)

/**
 * Client → server over `/v1/scanner/stream` (WebSocket, same origin). First `auth` with the access
 * token (browsers cannot set headers on a WebSocket), then `subscribe` with the exchanges to watch
 * (empty = every enabled one); a later `subscribe` replaces the set.
 */
export const scannerClientMessageSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('auth'), accessToken: z.string().min(1).max(4096) }),
  z.object({ op: z.literal('subscribe'), exchanges: z.array(exchangeIdSchema).max(8) }),
]);
export type ScannerClientMessage = z.infer<typeof scannerClientMessageSchema>;

/**
 * Server → client. `snapshot`: every row of an exchange (on subscribe, and when its pair list
 * changed); `update`: the rows that changed since the last push, as blocks (at most two pushes a second);
 * `status`: an exchange's freshness changed; `error`: the stream is refused (401 'Invalid access
 * token' → refresh and reconnect; 403 the scanner is off) and the server closes it.
 */
export const scannerServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('snapshot'), exchange: exchangeIdSchema, rows: z.array(scannerRowSchema), status: scannerExchangeStatusSchema }),
  z.object({ type: z.literal('update'), exchange: exchangeIdSchema, blocks: z.array(scannerUpdateBlockSchema) }),
  z.object({ type: z.literal('status'), status: scannerExchangeStatusSchema }),
  z.object({ type: z.literal('error'), status: z.number().int(), message: z.string() }),
]);
export type ScannerServerMessage = z.infer<typeof scannerServerMessageSchema>;

// ------------------------------------------------------------- views and presets (user settings)

/** Columns the table sorts by. */
export const SCANNER_SORT_COLUMNS = ['symbol', 'exchange', ...SCANNER_VALUE_FIELDS] as const;
export const scannerSortColumnSchema = z.enum(SCANNER_SORT_COLUMNS);
export type ScannerSortColumn = z.infer<typeof scannerSortColumnSchema>;

export const SCANNER_TEXT_MAX = 40;

/** What the scanner shows: filters, sort and the favourites-first option. */
export const scannerViewSchema = z.object({
  /** Exchanges to show (empty = every enabled exchange). */
  exchanges: z.array(exchangeIdSchema).max(8),
  /** Quote currencies to show (empty = all). */
  quotes: z.array(z.string().min(1).max(16)).max(20),
  /** Minimum 24 h quote volume, null = no minimum. */
  minVolume: z.number().finite().nonnegative().nullable(),
  /** 24 h change range in percent, either end open (null). */
  minChange: z.number().finite().nullable(),
  maxChange: z.number().finite().nullable(),
  /** Matches the pair or its base (case-insensitive). */
  text: z.string().max(SCANNER_TEXT_MAX),
  sort: scannerSortColumnSchema,
  direction: z.enum(['asc', 'desc']),
  favoritesFirst: z.boolean(),
});
export type ScannerView = z.infer<typeof scannerViewSchema>;

export const SCANNER_VIEW_DEFAULTS: ScannerView = {
  exchanges: [],
  quotes: [],
  minVolume: null,
  minChange: null,
  maxChange: null,
  text: '',
  sort: 'quoteVolume',
  direction: 'desc',
  favoritesFirst: false,
};

export const SCANNER_PRESETS_MAX = 20;
export const SCANNER_PRESET_NAME_MAX = 40;
export const scannerPresetNameSchema = z.string().trim().min(1).max(SCANNER_PRESET_NAME_MAX);

/** Named views the user saved (server-side `scannerPresets`: they follow the user). */
export const scannerPresetsSchema = z
  .record(scannerPresetNameSchema, scannerViewSchema)
  .refine((presets) => Object.keys(presets).length <= SCANNER_PRESETS_MAX, { message: `At most ${SCANNER_PRESETS_MAX} scanner presets` });
export type ScannerPresets = z.infer<typeof scannerPresetsSchema>;
