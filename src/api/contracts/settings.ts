import { z } from 'zod';
import { exchangeIdSchema, jsonDepth } from './common';
import { scannerPresetsSchema } from './scanner';

/** Drawing colours (SPEC §3: yellow, green, red, blue; default blue) — the chart engine's own names. */
export const DRAWING_COLOR_NAMES = ['yellow', 'green', 'red', 'blue'] as const;
export const drawingColorNameSchema = z.enum(DRAWING_COLOR_NAMES);

/** Drawings kept per exchange and kind; each list is capped so one PATCH stays well under the body limit. */
export const DRAWINGS_PER_EXCHANGE_MAX = 500;
const drawingIdSchema = z.string().min(1).max(64);
const drawingSymbolSchema = z.string().min(1).max(64);

/**
 * A horizontal line (SPEC §3: id, symbol, price). `color` is ours and optional: a line saved without
 * one (older builds) shows in the default blue.
 */
export const horizontalLineSchema = z.object({
  id: drawingIdSchema,
  symbol: drawingSymbolSchema,
  price: z.number().finite(),
  color: drawingColorNameSchema.optional(),
});
export type HorizontalLine = z.infer<typeof horizontalLineSchema>;

/** A point of a drawing: bar open time in unix seconds, price in the pair's quote currency. */
export const chartPointSchema = z.object({ time: z.number().finite(), price: z.number().finite() });
export type ChartPoint = z.infer<typeof chartPointSchema>;

/** A rectangle on one pair's chart: two opposite corners. */
export const rectangleRecordSchema = z.object({
  id: drawingIdSchema,
  symbol: drawingSymbolSchema,
  p1: chartPointSchema,
  p2: chartPointSchema,
  color: drawingColorNameSchema,
});
export type RectangleRecord = z.infer<typeof rectangleRecordSchema>;

/**
 * A Fibonacci retracement (SPEC §3 fib selection: id, exchange, symbol, rect, fibColor,
 * fibAmountOfPositiveLines, fibIncrement, fibMainValue, fibCustomValue). `rect` is the same shape the
 * device-local drawing settings (v3) used: start = the 0 level, end = the 1 level, times in unix
 * seconds. The fib fields are strings, as the user typed them.
 */
export const fibRecordSchema = z.object({
  id: drawingIdSchema,
  exchange: exchangeIdSchema,
  symbol: drawingSymbolSchema,
  rect: z.object({
    startTime: z.number().finite(),
    startPrice: z.number().finite(),
    endTime: z.number().finite(),
    endPrice: z.number().finite(),
  }),
  fibColor: drawingColorNameSchema,
  fibAmountOfPositiveLines: z.string().max(16),
  fibIncrement: z.string().max(16),
  fibMainValue: z.string().max(16),
  fibCustomValue: z.string().max(16),
});
export type FibRecord = z.infer<typeof fibRecordSchema>;

export const favoritePairSchema = z.object({
  symbol: z.string().min(1).max(64),
  exchange: exchangeIdSchema,
});
export type FavoritePair = z.infer<typeof favoritePairSchema>;

/** Lists per exchange, e.g. `{ binance: [...], bitmex: [...] }`. */
export const horizontalLinesByExchangeSchema = z.partialRecord(exchangeIdSchema, z.array(horizontalLineSchema).max(DRAWINGS_PER_EXCHANGE_MAX));
export const rectanglesByExchangeSchema = z.partialRecord(exchangeIdSchema, z.array(rectangleRecordSchema).max(DRAWINGS_PER_EXCHANGE_MAX));
export const fibsByExchangeSchema = z.partialRecord(exchangeIdSchema, z.array(fibRecordSchema).max(DRAWINGS_PER_EXCHANGE_MAX));

/** Version of the stored workstation layout format; the client migrates older stored layouts. */
export const WORKSTATION_LAYOUT_VERSION = 1;
/** Cap on one stored layout (a busy 30-panel layout is ~15 KB; the cap stops runaway payloads). */
export const LAYOUT_MAX_BYTES = 200_000;
export const NAMED_LAYOUTS_MAX = 20;
/** Cap on all named layouts together, so one PATCH with both keys stays under 1 MB. */
export const NAMED_LAYOUTS_MAX_BYTES = 600_000;
export const LAYOUT_NAME_MAX = 40;
/**
 * Cap on how deep a layout model nests. flexlayout models nest a few levels per split (row →
 * children → tabset → tab → config); a model past this is not a layout, and a 5,000-deep one
 * once overflowed the stack (500) on its way to the database.
 */
export const LAYOUT_MAX_DEPTH = 48;

const jsonBytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length;

/**
 * One saved workstation layout. `model` is flexlayout-react's own model JSON (`IJsonModel`), kept
 * as-is (validated loosely: it is the library's format, not ours); `version` says which migrations
 * the client must run on it; `savedAt` (ms since epoch, client clock) decides between the server
 * copy and a newer local copy that had not reached the server yet.
 */
export const storedLayoutSchema = z
  .object({
    version: z.number().int().min(1),
    savedAt: z.number().int().nonnegative(),
    model: z.record(z.string(), z.unknown()),
  })
  .refine((layout) => jsonDepth(layout.model) <= LAYOUT_MAX_DEPTH, { message: `Layout is nested too deeply (at most ${LAYOUT_MAX_DEPTH} levels)`, path: ['model'], abort: true })
  .refine((layout) => jsonBytes(layout.model) <= LAYOUT_MAX_BYTES, { message: 'Layout is too large', path: ['model'] });
export type StoredLayout = z.infer<typeof storedLayoutSchema>;

export const layoutNameSchema = z.string().min(1).max(LAYOUT_NAME_MAX);

/** Layouts the user saved under a name (switch, overwrite, delete). */
export const namedLayoutsSchema = z
  .record(layoutNameSchema, storedLayoutSchema)
  .refine((named) => Object.keys(named).length <= NAMED_LAYOUTS_MAX, { message: `At most ${NAMED_LAYOUTS_MAX} saved layouts` })
  .refine((named) => jsonBytes(named) <= NAMED_LAYOUTS_MAX_BYTES, { message: 'Saved layouts are too large' });
export type NamedLayouts = z.infer<typeof namedLayoutsSchema>;

/**
 * Server-side user settings (SPEC §3): they follow the user across devices.
 * Later features extend this object (drawings, layouts); unknown keys are rejected.
 */
export const serverSettingsSchema = z.object({
  horizontalLines: horizontalLinesByExchangeSchema,
  /** Rectangles per exchange (ours: SPEC keeps only horizontal lines server-side; drawings follow the user). */
  rectangles: rectanglesByExchangeSchema,
  /** Fibonacci retracements per exchange: the records the drawing settings once kept on the device. */
  fibs: fibsByExchangeSchema,
  riskOptions: z.array(z.number().positive().max(100)).max(20),
  stopLossOptions: z.array(z.number().positive().max(100)).max(20),
  favoritePairs: z.array(favoritePairSchema).max(500),
  /**
   * The workstation layout in use (null: the default layout). A key of its own, apart from
   * `namedLayouts`, so the frequent debounced layout saves never resend — or overwrite from a stale
   * device — the named layouts.
   */
  layout: storedLayoutSchema.nullable(),
  namedLayouts: namedLayoutsSchema,
  /** The scanner's named views (filters, sort, favourites first); a PATCH replaces the whole map. */
  scannerPresets: scannerPresetsSchema,
  /** E-mail me when a price alert fires (sent only when the server has SMTP configured). */
  alertEmails: z.boolean(),
});
export type ServerSettings = z.infer<typeof serverSettingsSchema>;

export const SERVER_SETTINGS_DEFAULTS: ServerSettings = {
  horizontalLines: {},
  rectangles: {},
  fibs: {},
  riskOptions: [0.5, 1, 1.5, 2],
  stopLossOptions: [0.5, 1, 2, 3],
  favoritePairs: [],
  layout: null,
  namedLayouts: {},
  scannerPresets: {},
  alertEmails: false,
};

/**
 * `PATCH /v1/users/settings`: any subset of the fields. A per-exchange map (`PER_EXCHANGE_SETTINGS_KEYS`)
 * merges by exchange — the lists of the exchanges it names replace the stored ones, the others stay —
 * so two devices saving drawings on different exchanges never overwrite each other; every other
 * field replaces the stored one. `applyServerSettingsPatch` is the rule, for the server and the client cache.
 */
export const patchServerSettingsBodySchema = serverSettingsSchema.partial().strict();
export type PatchServerSettingsBody = z.infer<typeof patchServerSettingsBodySchema>;

/** Fields that map exchange → list and merge by exchange on PATCH. */
export const PER_EXCHANGE_SETTINGS_KEYS = ['horizontalLines', 'rectangles', 'fibs'] as const satisfies readonly (keyof ServerSettings)[];
export type PerExchangeSettingsKey = (typeof PER_EXCHANGE_SETTINGS_KEYS)[number];

export const isPerExchangeSettingsKey = (key: string): key is PerExchangeSettingsKey => (PER_EXCHANGE_SETTINGS_KEYS as readonly string[]).includes(key);

/** The settings after `patch`, by the PATCH rule above (what the server stores, what the client shows meanwhile). */
export function applyServerSettingsPatch(current: ServerSettings, patch: PatchServerSettingsBody): ServerSettings {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    next[key] = isPerExchangeSettingsKey(key) ? { ...current[key], ...(value as object) } : value;
  }
  return next as ServerSettings;
}
