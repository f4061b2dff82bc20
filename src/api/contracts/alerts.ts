import { z } from 'zod';
import { exchangeIdSchema, NETWORKS, networkSchema } from './common';

/**
 * Price alerts (SPEC §3 Alert: exchange, id, initialPrice, triggerPrice), stored per user at
 * `/v1/alerts`. An alert fires when the live price reaches `triggerPrice` coming from the side of
 * `initialPrice` (the price when it was set). The server decides (issue 13): its evaluator
 * (`server/services/jobs/alert-watch.ts`) watches the exchange's prices with no browser open and
 * notifies the user (`/v1/notifications`); `src/state/alerts.ts` `isAlertTriggered` is the same
 * rule, used by the app only to describe an alert.
 *
 * Every `/v1/alerts` route answers 403 `{ message: ALERTS_DISABLED_MESSAGE }` while the
 * FF_ENABLE_ALERTS flag is off, and 404 for an alert of another user.
 */

/** Active alerts one user may hold at once (creating or re-arming past it answers 409). */
export const ALERTS_ACTIVE_MAX = 200;
/** Triggered alerts kept per user: the oldest beyond this are deleted when another one triggers. */
export const ALERTS_TRIGGERED_KEPT = 200;
export const ALERT_NOTE_MAX = 200;
export const ALERTS_DISABLED_MESSAGE = 'Price alerts are turned off';

export const ALERT_STATUSES = ['active', 'triggered'] as const;
export const alertStatusSchema = z.enum(ALERT_STATUSES);
export type AlertStatus = z.infer<typeof alertStatusSchema>;

/** A quote price: positive (zod 4 numbers are finite: `1e999` in JSON is refused too). */
export const alertPriceSchema = z.number('Enter a price').positive('The price must be above 0');

/** Our pair name as the charts use it (`BTCUSDT`, `XBTUSD`); the adapters map it to each exchange's id. */
export const alertSymbolSchema = z
  .string('Enter a pair')
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9][A-Z0-9._:/-]{0,39}$/, 'Enter a pair such as BTCUSDT');

export const alertNoteSchema = z.string().trim().max(ALERT_NOTE_MAX, `The note must be at most ${ALERT_NOTE_MAX} characters`);

/** A drawing id (`src/api/contracts/settings.ts` ids are ≤ 64) plus an optional `:top` / `:bottom` edge. */
/**
 * The network an alert is evaluated on (issue 26 §3): the chart's network when it was set (MAINNET,
 * or TESTNET with `useTestnet`; the simulator serves both from one market). A bad value answers 400
 * naming `network`.
 */
export const alertNetworkSchema = z.enum(NETWORKS, `The network must be ${NETWORKS.join(' or ')}`);

export const alertDrawingIdSchema = z.string('Invalid drawingId').min(1, 'Invalid drawingId').max(80, 'Invalid drawingId: at most 80 characters');

export const alertSchema = z.object({
  id: z.uuid(),
  exchange: exchangeIdSchema,
  /**
   * The network whose prices fire it (the chart's network when it was set). Read as MAINNET when
   * absent: an alert copied into a notification before networks (issue 26) was a mainnet one.
   */
  network: networkSchema.default('MAINNET'),
  symbol: z.string(),
  /** The price when the alert was set (or last moved / re-armed): which side the trigger is approached from. */
  initialPrice: z.number(),
  triggerPrice: z.number(),
  status: alertStatusSchema,
  /** When it fired (ISO), null while active. */
  triggeredAt: z.iso.datetime().nullable(),
  /** The live price that fired it, null while active. */
  triggeredPrice: z.number().nullable(),
  /** The user's own words ("breakout retest"); null when none. */
  note: z.string().nullable(),
  /**
   * The chart drawing the alert follows (a horizontal line's id, or `<rectangle id>:top|bottom`):
   * moving the drawing moves the alert. Null for a free alert.
   */
  drawingId: z.string().nullable(),
  createdAt: z.iso.datetime(),
  /**
   * When the prices or the note last changed (create, move, re-arm). Monitors ignore candles that
   * closed before it, so a back-filled old bar cannot fire an alert set after it.
   */
  updatedAt: z.iso.datetime(),
});
export type Alert = z.infer<typeof alertSchema>;
export const alertListSchema = z.array(alertSchema);

const differentPrices = (b: { initialPrice?: number; triggerPrice?: number }) =>
  b.initialPrice === undefined || b.triggerPrice === undefined || b.initialPrice !== b.triggerPrice;
const SAME_PRICE = { path: ['triggerPrice'], message: 'The trigger price must differ from the current price' };

/**
 * `POST /v1/alerts` → 201 Alert. `initialPrice` is the live price when the user sets the alert; the
 * alert waits for a rise when `triggerPrice` is above it, for a fall when below (equal is refused).
 * `network` is the network of the prices the user saw (the app always sends its chart's); left out,
 * it is MAINNET — the exchange's real market, as everywhere else in the API (tickers, instruments).
 */
export const createAlertBodySchema = z
  .object({
    exchange: exchangeIdSchema,
    network: alertNetworkSchema.default('MAINNET'),
    symbol: alertSymbolSchema,
    initialPrice: alertPriceSchema,
    triggerPrice: alertPriceSchema,
    note: alertNoteSchema.optional(),
    drawingId: alertDrawingIdSchema.optional(),
  })
  .strict()
  .refine(differentPrices, SAME_PRICE);
export type CreateAlertBody = z.input<typeof createAlertBodySchema>;

/**
 * `PATCH /v1/alerts/{id}` → 200 Alert. Moving an alert (dragging its chart line) sends the new
 * `triggerPrice` with `initialPrice` = the live price now, so the direction is judged afresh — except
 * when the line was dragged across the live price: the chart then keeps the alert's direction (an
 * `initialPrice` on the side it waited on), so it fires (src/panels/chart/alert-lines.ts). Only
 * active alerts move (409 otherwise: re-arm a triggered one). `note: null` or `''` clears the note.
 */
export const updateAlertBodySchema = z
  .object({
    triggerPrice: alertPriceSchema.optional(),
    initialPrice: alertPriceSchema.optional(),
    note: alertNoteSchema.nullable().optional(),
    drawingId: alertDrawingIdSchema.nullable().optional(),
  })
  .strict()
  .refine((b) => b.triggerPrice !== undefined || b.note !== undefined || b.drawingId !== undefined, { path: ['triggerPrice'], message: 'Send a triggerPrice, a note or a drawingId' })
  .refine((b) => (b.triggerPrice === undefined) === (b.initialPrice === undefined), {
    path: ['initialPrice'],
    message: 'Send the current price as initialPrice with a new triggerPrice (and only then)',
  })
  .refine(differentPrices, SAME_PRICE);
export type UpdateAlertBody = z.input<typeof updateAlertBodySchema>;

/**
 * `POST /v1/alerts/{id}/rearm` → 200 Alert: a triggered alert becomes active again with
 * `initialPrice` = the live price now, at its old trigger price or a new one. Re-arming an active
 * alert just resets its prices.
 */
export const rearmAlertBodySchema = z
  .object({ initialPrice: alertPriceSchema, triggerPrice: alertPriceSchema.optional() })
  .strict()
  .refine(differentPrices, SAME_PRICE);
export type RearmAlertBody = z.infer<typeof rearmAlertBodySchema>;

/**
 * `GET /v1/alerts?status=` → Alert[]: active ones oldest first, then triggered ones newest first
 * (each list capped by the limits above). Without `status`, both.
 */
export const listAlertsQuerySchema = z.object({ status: alertStatusSchema.optional() });
export type ListAlertsQuery = z.infer<typeof listAlertsQuerySchema>;

/** `DELETE /v1/alerts?status=triggered` → `{ deleted }`: clears the triggered list. */
export const clearAlertsQuerySchema = z.object({ status: z.literal('triggered', 'Only triggered alerts can be cleared: status=triggered') });
export const clearAlertsResultSchema = z.object({ deleted: z.number().int().nonnegative() });
export type ClearAlertsResult = z.infer<typeof clearAlertsResultSchema>;
